#include "sandbox/egress_route.h"

#include "egress/step_relay.h"
#include "sandbox/egress_relay_argv.h"

namespace lw::sandbox {

Status routeToEgressProxy(const BackendTraits& traits, std::string_view backendName,
                          const std::filesystem::path& relayInit, bool relayInitFound,
                          const std::filesystem::path& proxySocket, StepSpec& spec) {
  if (traits.egress == BackendTraits::EgressPath::ByBackend) {
    spec.egressSocket = proxySocket;  // the backend's to connect the step to
    return Ok{};
  }
  if (!traits.hostFilesVisible || !relayInitFound)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "networkMode allow-list needs loopwright's egress relay (" + relayInit.string() +
                         ") inside the sandbox, and " + std::string(backendName) +
                         (traits.hostFilesVisible ? " cannot find it" : " does not show host files"),
                     "install loopwright-container-init beside loopwright (docs/egress.md)", std::string(backendName));
  spec.argv = behindEgressRelay(relayInit.string(), proxySocket, spec.argv);
  spec.readOnlyPaths.push_back(relayInit);
  spec.readOnlyPaths.push_back(proxySocket.parent_path());
  return Ok{};
}

std::map<std::string, std::string> egressProxyVariables() {
  // Lower case too: curl reads http_proxy only so, most tools either.
  const std::string proxy = "http://127.0.0.1:" + std::to_string(egress::kRelayPort);
  std::map<std::string, std::string> vars;
  for (const char* name : {"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"}) vars[name] = proxy;
  for (const char* name : {"NO_PROXY", "no_proxy"}) vars[name] = "localhost,127.0.0.1,::1";
  return vars;
}

}  // namespace lw::sandbox
