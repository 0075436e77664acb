#include "github/publish/fingerprint.h"

#include <cstdint>

#include "core/fnv1a.h"
#include "core/hex.h"

namespace lw::github {

namespace {

void mix(std::uint64_t& h, std::string_view s) {
  // A separator that cannot occur inside the fields keeps ("ab","c") != ("a","bc").
  h = fnv1a64("\xff", fnv1a64(s, h));
}

}  // namespace

std::string fingerprint(const Finding& f) {
  std::uint64_t h = kFnv1a64OffsetBasis;
  mix(h, f.step);
  mix(h, f.ruleId);
  mix(h, f.path);
  mix(h, std::to_string(f.line));
  mix(h, std::to_string(f.endLine > f.line ? f.endLine : f.line));
  mix(h, f.message);
  return hexNumber(h, 16);
}

}  // namespace lw::github
