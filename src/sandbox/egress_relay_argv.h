// networkMode allow-list where the step's way out is loopwright's egress
// relay inside the sandbox (docs/egress.md): the command line that runs the
// step behind it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lw::sandbox {

// `init` (loopwright-container-init as the sandbox sees it) listening on
// 127.0.0.1:3128 in the step's network namespace and carrying each
// connection to the proxy's unix socket `socket`, with `argv` as its child.
// A backend that installs loopwright's seccomp filter through the same init
// puts the filter's init inside `argv`, so the relay alone opens unix sockets.
std::vector<std::string> behindEgressRelay(const std::string& init, const std::filesystem::path& socket,
                                           const std::vector<std::string>& argv);

}  // namespace lw::sandbox
