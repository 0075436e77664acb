#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/base64.h"

using namespace lw;

TEST_CASE("base64: the RFC 4648 test vectors encode and decode") {
  // RFC 4648 §10.
  const std::vector<std::pair<std::string, std::string>> vectors = {{"", ""},
                                                                    {"f", "Zg=="},
                                                                    {"fo", "Zm8="},
                                                                    {"foo", "Zm9v"},
                                                                    {"foob", "Zm9vYg=="},
                                                                    {"fooba", "Zm9vYmE="},
                                                                    {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CAPTURE(plain);
    CHECK(base64Encode(plain) == encoded);
    CHECK(base64Decode(encoded) == plain);
  }
}

TEST_CASE("base64: bytes of every value, and the url alphabet of RFC 4648 section 5") {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  CHECK(base64Decode(base64Encode(all)) == all);
  const std::string high("\xfb\xff\xbf", 3);
  CHECK(base64Encode(high) == "+/+/");
  CHECK(base64Encode(high, Base64Alphabet::Url) == "-_-_");
  CHECK(base64Encode(std::string("\0\0", 2)) == "AAA=");
  CHECK(base64Decode("AAA=") == std::string("\0\0", 2));
}

TEST_CASE("base64: text that is not canonical padded base64 is refused") {
  for (const char* bad : {"Zg",        // no padding
                          "Zg=",       // length not a multiple of four
                          "Zg===",     // too much padding
                          "Z===",      // a group of one character
                          "====",      // padding only
                          "Zm=v",      // '=' inside a group
                          "Zg==Zm9v",  // padding before the end
                          "Zh==",      // unused bits set (RFC 4648 section 3.5)
                          "Zm9=",      // the same with one '='
                          " Zm9v",     // whitespace, which OpenSSL would skip
                          "Zm9v\n",    // a trailing newline
                          "-_-_",      // the url alphabet
                          "ab!="}) {
    CAPTURE(bad);
    CHECK_FALSE(base64Decode(bad).has_value());
  }
  CHECK_FALSE(base64Decode(std::string_view("Zm9v\0\0\0\0", 8)).has_value());
}
