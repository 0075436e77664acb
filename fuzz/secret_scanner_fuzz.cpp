// The secret scanner reads what a step printed: hostile text by assumption.
// Any byte string must scan without a crash or a hang (libFuzzer -timeout;
// quadratic detectors once made a megabyte take minutes), hits must lie in
// the text in order without overlap, and no run secret may survive masking.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "verify/secrets/secret_scanner.h"

namespace {
// No '*' in them: the mask itself cannot form one.
const std::string kSecrets[] = {"hunter2-s3cret", "abab", "multi\nline-Secret"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const lw::verify::SecretScanner scanner({kSecrets[0], kSecrets[1], kSecrets[2]});
  std::string_view text(reinterpret_cast<const char*>(data), size);
  lw::verify::ScanResult r = scanner.scanAndMask(text);
  std::size_t previousEnd = 0;
  for (const lw::verify::SecretHit& h : r.hits) {
    if (h.length == 0 || h.offset < previousEnd || h.offset + h.length > size) __builtin_trap();
    previousEnd = h.offset + h.length;
  }
  for (const std::string& secret : kSecrets)
    if (r.masked.find(secret) != std::string::npos) __builtin_trap();
  if (r.clean() && r.masked != text) __builtin_trap();
  return 0;
}
