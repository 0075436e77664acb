// findings.json and triage.json are written by the step: hostile input by
// assumption. Any byte string must yield the parsed output or OUTPUT_INVALID
// with a message naming where: never a crash, a hang or a leak. The first
// byte chooses the file; accepted findings then go through masking.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "verify/outputs/outputs.h"
#include "verify/secrets/secret_scanner.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto invalid = [](const lw::Error& e) { return e.code != lw::ErrorCode::OutputInvalid || e.message.empty(); };
  if (data[0] % 2 == 0) {
    auto r = lw::verify::parseFindings(text, "fuzz");
    if (!r.ok()) {
      if (invalid(r.error())) __builtin_trap();
      return 0;
    }
    static const lw::verify::SecretScanner scanner({"hunter2-s3cret"});
    (void)lw::verify::maskFindings(scanner, *r);
  } else {
    auto r = lw::verify::parseTriage(text, "fuzz");
    if (!r.ok() && invalid(r.error())) __builtin_trap();
  }
  return 0;
}
