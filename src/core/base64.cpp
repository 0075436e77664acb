#include "core/base64.h"

#include <algorithm>

#include <openssl/evp.h>

namespace lw {

std::string base64Encode(std::string_view bytes, Base64Alphabet alphabet) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');  // EVP_EncodeBlock writes a final NUL
  int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(written));
  if (alphabet == Base64Alphabet::Url) {
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
  }
  return out;
}

std::optional<std::string> base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(3 * (text.size() / 4), '\0');
  // EVP_DecodeBlock skips leading and trailing whitespace, takes '=' as zero
  // bits anywhere in the last group and counts padding as output bytes: the
  // re-encoding check below refuses everything it lets through that is not
  // the one canonical text.
  int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (written < 0) return std::nullopt;
  std::size_t padding = text.ends_with("==") ? 2 : text.ends_with("=") ? 1 : 0;
  if (static_cast<std::size_t>(written) != out.size() || padding > out.size()) return std::nullopt;
  out.resize(out.size() - padding);
  if (base64Encode(out) != text) return std::nullopt;
  return out;
}

}  // namespace lw
