#include <doctest/doctest.h>

#include "verify/secrets/secret_encodings.h"

using namespace lw::verify;

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
