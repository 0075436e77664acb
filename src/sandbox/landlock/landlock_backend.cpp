#include "sandbox/landlock/landlock_backend.h"

#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sandbox/landlock/landlock_plan.h"
#include "sandbox/landlock/landlock_ruleset.h"
#include "sandbox/landlock/namespaces.h"
#include "sandbox/process/child_setups.h"

namespace lw::sandbox::landlock {
namespace {

namespace fs = std::filesystem;

std::string canonical(const std::string& raw) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(raw, ec), ec);
  if (ec) return fs::path(raw).lexically_normal().string();
  std::string s = p.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

Error launchFailed(std::string message, std::string hint = {}) {
  return makeError(ErrorCode::SandboxLaunchFailed, "linux-landlock: " + std::move(message),
                   std::move(hint), "linux-landlock");
}

bool holdsSetpcap() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  return (data[CAP_TO_INDEX(CAP_SETPCAP)].effective & CAP_TO_MASK(CAP_SETPCAP)) != 0;
}

process::ChildSetup installSeccomp(std::shared_ptr<const seccomp::BpfProgram> program) {
  return process::ChildSetup{"seccomp filter",
                             [program] { return program->installOnCurrentThread(); }};
}

}  // namespace

Result<std::shared_ptr<const seccomp::BpfProgram>> LandlockBackend::filterFor(
    const seccomp::Options& o) {
  auto key = std::make_pair(o.network, o.denyNewUnixSockets);
  if (auto it = filters_.find(key); it != filters_.end()) return it->second;
  auto compiled = seccomp::compile(seccomp::buildPolicy(o));
  if (!compiled) return std::move(compiled).error();
  auto program = std::make_shared<const seccomp::BpfProgram>(std::move(compiled).value());
  filters_[key] = program;
  return program;
}

const ProbeReport& LandlockBackend::probe() {
  std::lock_guard lock(mu_);
  if (report_) return *report_;
  auto filter = filterFor({NetworkMode::None, true});
  if (!filter) {
    Observation o;
    o.failure = filter.error().message;
    observation_ = o;
  } else {
    observation_ = observeHost(**filter);
  }
  report_ = classify(observation_);
  return *report_;
}

Result<std::unique_ptr<process::RunningProcess>> LandlockBackend::launch(const StepSpec& spec) {
  const ProbeReport& report = probe();
  if (!report.available)
    return makeError(ErrorCode::SandboxBackendUnavailable,
                     "linux-landlock: " + report.unavailableReason, {}, "linux-landlock");
  HostFacts facts{observation_.abi, observation_.namespaces && observation_.pidNamespaceInit,
                  holdsSetpcap()};
  auto planned = plan(spec, facts, canonical);
  if (!planned) return std::move(planned).error();
  for (const PathRule& rule : planned->paths) {
    struct stat st {};
    if (rule.required && stat(rule.path.c_str(), &st) != 0)
      return launchFailed(rule.path + ": " + std::strerror(errno),
                          "the workspace, the out dir and writable paths must exist");
  }
  std::shared_ptr<const seccomp::BpfProgram> filter;
  {
    std::lock_guard lock(mu_);
    auto f = filterFor(planned->seccomp);
    if (!f) return std::move(f).error();
    filter = *f;
  }

  process::SpawnRequest req;
  req.argv = spec.argv;
  req.env = spec.env;
  req.cwd = (spec.workdir.empty() ? spec.workspace : spec.workdir).string();
  req.passFd = spec.passFd;
  req.maxOutputBytes = spec.maxOutputBytes;
  req.onOutput = spec.onOutput;
  if (planned->userNamespace)
    req.childSetup.push_back(enterNamespaces(
        geteuid(), getegid(), {planned->networkNamespace, planned->pidNamespace}));
  if (planned->pidNamespace) req.childSetup.push_back(stepAsPidNamespaceInit());
  req.childSetup.push_back(restrictWithLandlock(
      std::make_shared<const PreparedRuleset>(std::move(planned).value())));
  req.childSetup.push_back(process::dropAllCapabilities());
  req.childSetup.push_back(installSeccomp(filter));
  return process::spawn(req);
}

std::unique_ptr<Backend> makeLandlockBackend() { return std::make_unique<LandlockBackend>(); }

}  // namespace lw::sandbox::landlock
