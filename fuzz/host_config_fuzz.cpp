// Any byte string given to the host config loader must yield a HostConfig or
// HOST_CONFIG_INVALID with diagnostics: never a crash, a hang or a leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/load/host_config_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = lw::parseHostConfig(text, "host.yaml");
  if (!r.ok() && (r.error().code != lw::ErrorCode::HostConfigInvalid || r.error().diagnostics.empty()))
    __builtin_trap();
  return 0;
}
