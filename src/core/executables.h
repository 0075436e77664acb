// An installation is three executables in one directory. `loopwright` runs
// the commands every sandboxed step pays for (`sandbox exec`, `bridge stdio`)
// with few libraries loaded, and hands every other command to
// `loopwright-engine`, which links everything (libgit2, even from its
// archive, brings GSSAPI and libcrypto: ~1 ms of dynamic linking per start).
// `loopwright-container-init` is the static entrypoint of docker steps.
#pragma once

#include <filesystem>
#include <string_view>

namespace lw {

inline constexpr std::string_view kFrontExecutable = "loopwright";
inline constexpr std::string_view kEngineExecutable = "loopwright-engine";
inline constexpr std::string_view kContainerInitExecutable = "loopwright-container-init";

// The running executable (/proc/self/exe); empty when it cannot be read.
std::filesystem::path runningExecutable();

// `name` in the running executable's directory; empty when that is unknown.
std::filesystem::path siblingExecutable(std::string_view name);

}  // namespace lw
