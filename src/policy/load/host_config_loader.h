// Loading the admin's host config. A missing file means no floor; a present
// but invalid one is HOST_CONFIG_INVALID (never ignored: ignoring it would
// silently drop the admin's floor).
#pragma once

#include <string>
#include <string_view>

#include "core/environment.h"
#include "core/result.h"
#include "policy/model/host_config.h"

namespace lw {

inline constexpr std::size_t kHostConfigMaxBytes = 64 * 1024;

// $LOOPWRIGHT_HOST_CONFIG when set, else /etc/loopwright/host.yaml.
std::string hostConfigPath(const Environment& env);

// The parsed file; its floor forbids direct-dedicated unless it says
// `allowDirectDedicated: true`.
Result<HostConfig> parseHostConfig(std::string_view text, const std::string& file);

// Reads the file at `path`; a missing file yields HostConfig{present = false}.
// When `mustExist` (the path was named explicitly) a missing file is an error.
Result<HostConfig> loadHostConfig(const std::string& path, bool mustExist);

// True for "name@sha256:<64 hex>" or a bare "sha256:<64 hex>" image id.
bool isPinnedImage(std::string_view image);

}  // namespace lw
