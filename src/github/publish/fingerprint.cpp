#include "github/publish/fingerprint.h"

#include <cstdint>

#include "core/hex.h"

namespace lw::github {

namespace {

void mix(std::uint64_t& h, std::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;  // FNV-1a 64-bit prime
  }
  // A separator that cannot occur inside the fields keeps ("ab","c") != ("a","bc").
  h ^= 0xff;
  h *= 1099511628211ULL;
}

}  // namespace

std::string fingerprint(const Finding& f) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64-bit offset basis
  mix(h, f.step);
  mix(h, f.ruleId);
  mix(h, f.path);
  mix(h, std::to_string(f.line));
  mix(h, std::to_string(f.endLine > f.line ? f.endLine : f.line));
  mix(h, f.message);
  return hexNumber(h, 16);
}

}  // namespace lw::github
