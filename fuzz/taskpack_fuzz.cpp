// Any byte string given to the taskpack loader must yield a Taskpack or
// TASKPACK_INVALID: never a crash, a hang (libFuzzer -timeout) or a leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/load/taskpack_loader.h"
#include "policy/resolve/resolve.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = lw::parseTaskpack(text, "fuzz.yaml", lw::TaskpackLoadOptions{"/home/fuzz"});
  if (r.ok()) {
    // A loaded taskpack must also resolve without crashing, with or without Actions.
    (void)lw::resolvePolicies(*r, lw::HostConfig{}, {true, "/home/fuzz"});
    (void)lw::resolvePolicies(*r, lw::HostConfig{}, {false, "/home/fuzz"});
  } else if (r.error().code != lw::ErrorCode::TaskpackInvalid || r.error().diagnostics.empty()) {
    __builtin_trap();  // every failure must be TASKPACK_INVALID with its reasons
  }
  return 0;
}
