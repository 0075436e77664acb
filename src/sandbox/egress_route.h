// networkMode allow-list: how a step's command reaches its egress proxy
// (docs/egress.md), planned the same way for `loopwright run` and
// `loopwright sandbox exec`. Pure.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "core/result.h"
#include "sandbox/backend.h"

namespace lw::sandbox {

// Routes `spec` to the proxy listening on `proxySocket`. A backend whose
// traits say EgressPath::ByBackend is handed the socket; any other runs the
// command behind `relayInit` (loopwright-container-init), with the init and
// the socket's directory visible read-only. Fails with SANDBOX_LAUNCH_FAILED
// when the relay cannot be in the step's view (`relayInitFound` false, or a
// backend that shows no host files).
Status routeToEgressProxy(const BackendTraits& traits, std::string_view backendName,
                          const std::filesystem::path& relayInit, bool relayInitFound,
                          const std::filesystem::path& proxySocket, StepSpec& spec);

// HTTP_PROXY and HTTPS_PROXY (and their lower-case forms) naming the step's
// 127.0.0.1:3128, NO_PROXY its loopback: for the tools that honour them.
std::map<std::string, std::string> egressProxyVariables();

}  // namespace lw::sandbox
