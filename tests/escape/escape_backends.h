// The backends the escape suite attacks: the single list every backend's
// owner adds to. A backend that is unavailable on the test host is skipped
// with its reason (a failure under CI=true).
#pragma once

#include <array>
#include <string_view>

namespace lw::escape {

inline constexpr std::array<std::string_view, 4> kEscapeBackends = {"linux-bwrap", "linux-landlock", "linux-gvisor",
                                                                    "docker"};

}  // namespace lw::escape
