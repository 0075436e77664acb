// Golden JSON files for the docker planner: compared as parsed JSON (key
// order and spacing do not matter); LW_UPDATE_GOLDEN=1 rewrites them.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <boost/json.hpp>

namespace lw::test {

inline void prettyJson(std::ostream& os, const boost::json::value& v, int indent = 0) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (v.is_object()) {
    const auto& o = v.as_object();
    if (o.empty()) {
      os << "{}";
      return;
    }
    os << "{\n";
    std::size_t i = 0;
    for (const auto& kv : o) {
      os << pad << "  " << boost::json::serialize(boost::json::value(kv.key())) << ": ";
      prettyJson(os, kv.value(), indent + 2);
      os << (++i < o.size() ? ",\n" : "\n");
    }
    os << pad << "}";
  } else if (v.is_array()) {
    const auto& a = v.as_array();
    if (a.empty()) {
      os << "[]";
      return;
    }
    os << "[\n";
    for (std::size_t i = 0; i < a.size(); ++i) {
      os << pad << "  ";
      prettyJson(os, a[i], indent + 2);
      os << (i + 1 < a.size() ? ",\n" : "\n");
    }
    os << pad << "]";
  } else {
    os << boost::json::serialize(v);
  }
}

inline void checkGoldenJson(const std::string& relPath, const boost::json::value& actual) {
  const std::string path = std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/" + relPath;
  const char* update = std::getenv("LW_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path);
    prettyJson(out, actual);
    out << "\n";
  }
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << path << " (LW_UPDATE_GOLDEN=1 writes it)");
  std::stringstream ss;
  ss << in.rdbuf();
  const boost::json::value expected = boost::json::parse(ss.str());
  std::ostringstream shown;
  prettyJson(shown, actual);
  CHECK_MESSAGE(expected == actual, "golden " << relPath << " differs; actual:\n" << shown.str());
}

}  // namespace lw::test
