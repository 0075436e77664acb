#include "core/http.h"

#include <cctype>

#include "core/hex.h"

namespace lw::http {

std::string percentEncode(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      appendHexByte(out, c, HexCase::Upper);
    }
  }
  return out;
}

std::string_view toString(Failure failure) {
  switch (failure) {
    case Failure::kNone: return "";
    case Failure::kUnreachable: return "unreachable";
    case Failure::kTimedOut: return "timed-out";
    case Failure::kTooLarge: return "too-large";
    case Failure::kRefused: return "refused";
  }
  return "";
}

std::string Response::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

Response noResponse(Failure failure, std::string error) {
  Response r;
  r.failure = failure;
  r.error = std::move(error);
  return r;
}

}  // namespace lw::http
