#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "core/json_text.h"

TEST_CASE("json text: well-formed UTF-8 is kept as it is") {
  for (const char* s :
       {"", "plain", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBD"}) {
    CAPTURE(s);
    CHECK(lw::isValidUtf8(s));
    CHECK(lw::repairUtf8(s) == s);
  }
}

TEST_CASE("json text: each maximal invalid subpart becomes one U+FFFD") {
  const std::string r = "\xEF\xBF\xBD";
  struct Row {
    std::string in, out;
  };
  const Row rows[] = {
      {"caf\xE9.txt", "caf" + r + ".txt"},  // Latin-1
      {"\xFF\xFE", r + r},                  // never a lead byte
      {"\xC0\xAF", r + r},                  // overlong '/'
      {"\xE0\x80\xAF", r + r + r},          // overlong, three bytes
      {"\xED\xA0\x80", r + r + r},          // a surrogate
      {"\xF4\x90\x80\x80", r + r + r + r},  // above U+10FFFF
      {"\xE2\x82", r},                      // truncated at the end
      {"\xE2\x82x", r + "x"},               // truncated before ASCII
      {"\xF0\x9F\x98", r},                  // truncated four-byte sequence
      {"a\x80"
       "b",
       "a" + r + "b"},  // a lone continuation byte
  };
  for (const Row& row : rows) {
    CAPTURE(row.in);
    CHECK_FALSE(lw::isValidUtf8(row.in));
    CHECK(lw::repairUtf8(row.in) == row.out);
    CHECK(lw::isValidUtf8(lw::repairUtf8(row.in)));
  }
}

TEST_CASE("json text: serialized values parse back strictly, keys included") {
  boost::json::object o;
  o["path"] = "bad\xFFname";
  o["nested"] = boost::json::array{"ok", boost::json::object{{"k\xFE", "v"}}};
  const std::string text = lw::toJsonText(o);
  boost::json::value back = boost::json::parse(text);  // throws on invalid UTF-8
  CHECK(back.at("path").as_string() == "bad\xEF\xBF\xBDname");
  CHECK(back.at("nested").as_array()[1].as_object().contains("k\xEF\xBF\xBD"));
  // Nothing to repair: the same text as Boost.JSON's own.
  boost::json::value clean = {{"a", "caf\xC3\xA9"}};
  CHECK(lw::toJsonText(clean) == boost::json::serialize(clean));
}
