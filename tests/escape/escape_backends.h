// The backends the escape suite attacks: the single list every backend's
// owner adds to. A backend that is unavailable on the test host is skipped
// with its reason (a failure under CI=true).
#pragma once

#include <array>
#include <string_view>

namespace lw::escape {

// docker is not listed yet: run against the local engine with a static
// hostile program it escapes four ways (a netlink socket under the engine's
// default seccomp profile, a host unix socket planted in the workspace, a
// protected path that does not exist yet, a protected path's renamed
// parent); see the open sandbox-runtime issue.
inline constexpr std::array<std::string_view, 2> kEscapeBackends = {"linux-bwrap", "linux-landlock"};

}  // namespace lw::escape
