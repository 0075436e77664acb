#include "guard/canonical_json.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <boost/json/serialize.hpp>

#include "core/fnv1a.h"
#include "core/hex.h"

namespace lw::guard {
namespace {

void write(const boost::json::value& v, std::string& out) {
  switch (v.kind()) {
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      std::vector<const boost::json::key_value_pair*> items;
      items.reserve(o.size());
      for (const auto& kv : o) items.push_back(&kv);
      std::sort(items.begin(), items.end(), [](const auto* a, const auto* b) { return a->key() < b->key(); });
      out += '{';
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        out += boost::json::serialize(boost::json::string(items[i]->key()));
        out += ':';
        write(items[i]->value(), out);
      }
      out += '}';
      return;
    }
    case boost::json::kind::array: {
      const auto& a = v.get_array();
      out += '[';
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (i) out += ',';
        write(a[i], out);
      }
      out += ']';
      return;
    }
    default: out += boost::json::serialize(v);
  }
}

}  // namespace

std::string canonicalJson(const boost::json::value& v) {
  std::string out;
  write(v, out);
  return out;
}

std::string fingerprint(std::string_view text) { return hexNumber(fnv1a64(text), 16); }

}  // namespace lw::guard
