// SHA-256 for the qualification fingerprint: backend binaries and the host
// config are identified by content, not by path or mtime. libcrypto's
// EVP_Digest does the work: loopwright-engine loads libcrypto already (for
// libgit2's SSH transport), and the front binary never reaches this file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // EVP_MD_CTX, from <openssl/types.h>

namespace lw::host {

class Sha256 {
 public:
  // Throws std::bad_alloc when libcrypto cannot allocate its context.
  Sha256();
  void update(std::string_view data);
  // The digest as 64 lower-case hex digits; the object is spent afterwards.
  std::string hexDigest();

 private:
  std::unique_ptr<evp_md_ctx_st, void (*)(evp_md_ctx_st*)> ctx_;
};

std::string sha256Hex(std::string_view data);

// The digest of a file's content; nullopt when it cannot be read.
std::optional<std::string> sha256File(const std::string& path);

}  // namespace lw::host
