#include "sandbox/docker/endpoint.h"

namespace lw::sandbox::docker {

Result<std::string> dockerSocketPath(const Environment& env) {
  const auto host = env.get("DOCKER_HOST");
  if (!host || host->empty()) return std::string(kDefaultDockerSocket);
  constexpr std::string_view kUnix = "unix://";
  if (host->compare(0, kUnix.size(), kUnix) != 0)
    return makeError(ErrorCode::SandboxBackendUnavailable, "DOCKER_HOST '" + *host + "' is not a unix socket",
                     "the docker backend binds host paths, so it only uses a local engine: "
                     "set DOCKER_HOST=unix:///path/to/docker.sock",
                     "docker");
  std::string path = host->substr(kUnix.size());
  if (path.empty() || path.front() != '/')
    return makeError(ErrorCode::SandboxBackendUnavailable,
                     "DOCKER_HOST '" + *host + "' does not name an absolute socket path",
                     "write it as unix:///absolute/path (three slashes)", "docker");
  return path;
}

}  // namespace lw::sandbox::docker
