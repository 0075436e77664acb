#include "core/json_text.h"

#include <boost/json/serialize.hpp>

namespace lw {
namespace {

struct Sequence {
  std::size_t length;  // of the well-formed sequence, or of the maximal invalid subpart
  bool valid;
};

// The sequence that starts at s[i] (Unicode 15, table 3-7). An invalid one
// spans its lead byte and the bytes after it that could still have completed
// it: one U+FFFD stands for them, as in the WHATWG decoder.
Sequence sequenceAt(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return {1, true};
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) lo = 0x90;  // no overlong forms
    if (lead == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return {1, false};
  }
  std::size_t k = 1;
  if (i + 1 < s.size() && byte(i + 1) >= lo && byte(i + 1) <= hi) {
    k = 2;
    while (k < n && i + k < s.size() && byte(i + k) >= 0x80 && byte(i + k) <= 0xBF) ++k;
  }
  return {k, k == n};
}

bool needsRepair(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::string: return !isValidUtf8(v.get_string());
    case boost::json::kind::array:
      for (const auto& e : v.get_array())
        if (needsRepair(e)) return true;
      return false;
    case boost::json::kind::object:
      for (const auto& kv : v.get_object())
        if (!isValidUtf8(kv.key()) || needsRepair(kv.value())) return true;
      return false;
    default: return false;
  }
}

boost::json::value repaired(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::string: return boost::json::string(repairUtf8(v.get_string()));
    case boost::json::kind::array: {
      boost::json::array a;
      a.reserve(v.get_array().size());
      for (const auto& e : v.get_array()) a.push_back(repaired(e));
      return a;
    }
    case boost::json::kind::object: {
      boost::json::object o;
      for (const auto& kv : v.get_object()) o[repairUtf8(kv.key())] = repaired(kv.value());
      return o;
    }
    default: return v;
  }
}

}  // namespace

bool isValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    Sequence q = sequenceAt(s, i);
    if (!q.valid) return false;
    i += q.length;
  }
  return true;
}

std::string repairUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    Sequence q = sequenceAt(s, i);
    if (q.valid)
      out.append(s.substr(i, q.length));
    else
      out += "\xEF\xBF\xBD";
    i += q.length;
  }
  return out;
}

std::string toJsonText(const boost::json::value& v) {
  return needsRepair(v) ? boost::json::serialize(repaired(v)) : boost::json::serialize(v);
}

}  // namespace lw
