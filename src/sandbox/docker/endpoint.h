// Where the Docker Engine API listens. Only a local unix socket is used:
// loopwright never talks to a remote engine (tcp://, ssh://) because the
// workspace binds are host paths of this machine.
#pragma once

#include <string>

#include "core/environment.h"
#include "core/result.h"

namespace lw::sandbox::docker {

inline constexpr std::string_view kDefaultDockerSocket = "/var/run/docker.sock";

// The socket path from DOCKER_HOST ("unix:///path"), or the default when it
// is unset or empty. Fails with SANDBOX_BACKEND_UNAVAILABLE for any other
// scheme or a relative path.
Result<std::string> dockerSocketPath(const Environment& env);

}  // namespace lw::sandbox::docker
