// `sandbox exec` with networkMode allow-list: the command's own egress
// proxy, started as `loopwright run` starts a step's and reached the same
// way (sandbox/egress_route.h), and what it decided (docs/egress.md).
#pragma once

#include <filesystem>
#include <memory>

#include <boost/json/array.hpp>

#include "core/result.h"
#include "egress/proxy.h"
#include "policy/model/effective_policy.h"
#include "sandbox/backend.h"

namespace lw::cli {

class ExecEgress {
 public:
  // Starts the proxy of `policy`'s egress list on a socket in a new
  // private directory and routes `spec` on `backend` to it (its command,
  // views and proxy variables). Fails with IO_ERROR when the proxy cannot
  // listen, SANDBOX_LAUNCH_FAILED when the backend cannot reach it.
  static Result<std::unique_ptr<ExecEgress>> start(const EffectiveSandbox& policy, const sandbox::Backend& backend,
                                                   sandbox::StepSpec& spec);
  ~ExecEgress();  // stops the proxy, removes its directory
  ExecEgress(const ExecEgress&) = delete;
  ExecEgress& operator=(const ExecEgress&) = delete;

  // Every connection the command asked for, allowed or denied, as in a
  // step's record; waits briefly for those still closing.
  boost::json::array records() const;

 private:
  explicit ExecEgress(std::filesystem::path dir) : dir_(std::move(dir)) {}

  std::filesystem::path dir_;
  std::unique_ptr<egress::EgressProxy> proxy_;
};

}  // namespace lw::cli
