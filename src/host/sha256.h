// SHA-256 (FIPS 180-4) for the qualification fingerprint: backend binaries
// and the host config are identified by content, not by path or mtime.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lw::host {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  // The digest as 64 lower-case hex digits; the object is spent afterwards.
  std::string hexDigest();

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  unsigned char buf_[64];
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

std::string sha256Hex(std::string_view data);

// The digest of a file's content; nullopt when it cannot be read.
std::optional<std::string> sha256File(const std::string& path);

}  // namespace lw::host
