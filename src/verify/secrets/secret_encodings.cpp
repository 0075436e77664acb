#include "verify/secrets/secret_encodings.h"

#include <cctype>

#include "core/base64.h"
#include "core/hex.h"

namespace lw::verify {
namespace {

std::string percentEncode(std::string_view s, bool upper, bool plusForSpace) {
  std::string out;
  for (unsigned char c : s) {
    bool unreserved = std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ' && plusForSpace) {
      out.push_back('+');
    } else {
      out.push_back('%');
      appendHexByte(out, c, upper ? HexCase::Upper : HexCase::Lower);
    }
  }
  return out;
}

std::string jsonEscape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '/': out += "\\/"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          appendHexByte(out, c);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> encodedForms(std::string_view secret) {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](std::string bytes, const char* kind) {
    if (bytes.size() < 4 || bytes == secret) return;
    for (const auto& [b, k] : out)
      if (b == bytes) return;
    out.emplace_back(std::move(bytes), kind);
  };
  for (bool url : {false, true}) {
    for (std::size_t shift = 0; shift < 3; ++shift) {
      // Prefix `shift` unknown bytes; keep the characters fully determined by
      // the secret: skip the ones mixing prefix bits, and the tail that mixes
      // with whatever follows.
      std::string padded(shift, '\0');
      padded.append(secret);
      std::string enc = base64Encode(padded, url ? Base64Alphabet::Url : Base64Alphabet::Standard);
      std::size_t skip = shift == 0 ? 0 : (shift == 1 ? 2 : 3);
      std::size_t fullChars = ((shift + secret.size()) / 3) * 4;
      std::size_t remBytes = (shift + secret.size()) % 3;
      std::size_t end = fullChars + (remBytes == 0 ? 0 : remBytes);  // partial group: determined chars
      if (end > enc.size()) end = enc.size();
      if (end <= skip) continue;
      add(enc.substr(skip, end - skip), url ? "run-secret:base64url" : "run-secret:base64");
    }
  }
  add(percentEncode(secret, true, false), "run-secret:url");
  add(percentEncode(secret, false, false), "run-secret:url");
  add(percentEncode(secret, true, true), "run-secret:url");
  add(percentEncode(secret, false, true), "run-secret:url");
  add(jsonEscape(secret), "run-secret:json");
  return out;
}

}  // namespace lw::verify
