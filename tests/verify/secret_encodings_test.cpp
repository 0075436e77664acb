#include <doctest/doctest.h>

#include "verify/secret_encodings.h"

using namespace lw::verify;

TEST_CASE("verify secrets: base64 and base64url as RFC 4648 spells them") {
  // RFC 4648 §10 test vectors, and the two characters base64url replaces.
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [in, out] : vectors) {
    CHECK(base64Encode(in, false) == out);
    CHECK(base64Encode(in, true) == out);
  }
  const std::string high("\xfb\xff\xbf", 3);
  CHECK(base64Encode(high, false) == "+/+/");
  CHECK(base64Encode(high, true) == "-_-_");
  CHECK(base64Encode(std::string("\0\0", 2), false) == "AAA=");
}

TEST_CASE("verify secrets: the encoded forms of a secret keep only the characters it decides") {
  auto forms = encodedForms("hunter2!");
  auto has = [&](const std::string& bytes, const std::string& kind) {
    for (const auto& [b, k] : forms)
      if (b == bytes && k == kind) return true;
    return false;
  };
  // "hunter2!" at offset 0 is "aHVudGVyMiE=": its last two characters mix
  // in the bits of whatever follows.
  CHECK(has("aHVudGVyMi", "run-secret:base64"));
  CHECK_FALSE(has("aHVudGVyMiE", "run-secret:base64"));
  CHECK(has("hunter2%21", "run-secret:url"));
  CHECK_FALSE(has("hunter2!", "run-secret:json"));  // the raw value is not a form
}
