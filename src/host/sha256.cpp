#include "host/sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <new>

#include "core/hex.h"

namespace lw::host {
namespace {

std::string hex(const unsigned char* digest, unsigned int size) {
  return hexBytes(std::string_view(reinterpret_cast<const char*>(digest), size));
}

}  // namespace

// EVP calls fail only when libcrypto cannot allocate: the same as new.
Sha256::Sha256() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
  if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1) throw std::bad_alloc();
}

void Sha256::update(std::string_view data) {
  if (EVP_DigestUpdate(ctx_.get(), data.data(), data.size()) != 1) throw std::bad_alloc();
}

std::string Sha256::hexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx_.get(), digest, &size) != 1) throw std::bad_alloc();
  return hex(digest, size);
}

std::string sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1) throw std::bad_alloc();
  return hex(digest, size);
}

std::optional<std::string> sha256File(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return std::nullopt;
  Sha256 s;
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.update(std::string_view(buf, n));
  bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err) return std::nullopt;
  return s.hexDigest();
}

}  // namespace lw::host
