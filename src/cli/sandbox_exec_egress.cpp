#include "cli/sandbox_exec_egress.h"

#include <stdlib.h>

#include "core/executables.h"
#include "sandbox/egress_route.h"

namespace lw::cli {

namespace fs = std::filesystem;

Result<std::unique_ptr<ExecEgress>> ExecEgress::start(const EffectiveSandbox& policy, const sandbox::Backend& backend,
                                                      sandbox::StepSpec& spec) {
  // Private to this user, as a step's directory is: whoever can connect to
  // the socket has the command's network.
  std::string dir = (fs::temp_directory_path() / "loopwright-egress-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr)
    return makeError(ErrorCode::IoError,
                     "cannot create a directory for the egress proxy in " + fs::temp_directory_path().string());
  std::unique_ptr<ExecEgress> egress(new ExecEgress(dir));
  const fs::path socket = egress->dir_ / "egress" / "proxy.sock";
  auto proxy = egress::startStepProxy(policy.egress, policy.egressSettings, socket);
  if (!proxy) return proxy.error();
  egress->proxy_ = std::move(*proxy);
  const fs::path init = siblingExecutable(kContainerInitExecutable);
  std::error_code ec;
  auto routed = sandbox::routeToEgressProxy(backend.traits(), toString(backend.id()), init,
                                            fs::is_regular_file(init, ec), socket, spec);
  if (!routed) return routed.error();
  for (auto& [name, value] : sandbox::egressProxyVariables()) spec.env[name] = value;
  return egress;
}

ExecEgress::~ExecEgress() {
  proxy_.reset();
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

boost::json::array ExecEgress::records() const {
  boost::json::array out;
  for (const auto& r : proxy_->finalRecords(std::chrono::milliseconds(500))) out.push_back(egress::toJson(r));
  return out;
}

}  // namespace lw::cli
