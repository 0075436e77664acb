// linux-gvisor as one step of a `run` sees it: the backend lives across
// steps in one loopwright, so a step's result returns once its container is
// deleted, while its scratch and emptied cgroups are removed in the
// background (sandbox/process/background_removal.h). Timed twice in the same
// process: to the result, and to the result with that removal joined —
// what a step cost when the removal was synchronous, and what `sandbox
// exec` (one step, the removal joined before it exits) still pays.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>

#include "core/environment.h"
#include "core/executables.h"
#include "sandbox/gvisor/gvisor_backend.h"

namespace lw::bench {

class InProcessGvisor {
 public:
  // nullptr without runsc.
  static std::unique_ptr<InProcessGvisor> make(const sandbox::StepSpec& spec, const std::filesystem::path& outDir) {
    sandbox::gvisor::GvisorConfig c = sandbox::gvisor::gvisorConfigFor(Environment::fromProcess());
    if (c.runscPath.empty()) return nullptr;
    c.cacheFile.reset();
    c.initBinary = std::filesystem::path(LOOPWRIGHT_BIN).parent_path() / kContainerInitExecutable;
    auto self = std::unique_ptr<InProcessGvisor>(new InProcessGvisor(c));
    self->spec_ = spec;
    self->spec_.outDir = outDir;
    self->spec_.env = {{"PATH", "/usr/bin:/bin"}};
    return self;
  }

  // One step of /bin/true; `ms` to its result (or with the removal joined).
  // The removal is always joined before the next step, untimed when not
  // asked for, so rounds do not pile up.
  int step(bool joinRemoval, double* ms) {
    const auto start = std::chrono::steady_clock::now();
    auto p = backend_.launch(spec_);
    if (!p) return 125;
    const sandbox::process::ExitInfo info = (*p)->wait(std::nullopt);
    p->reset();
    if (joinRemoval) backend_.awaitRemovals();
    *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    backend_.awaitRemovals();
    return info.exitCode;
  }

 private:
  explicit InProcessGvisor(sandbox::gvisor::GvisorConfig c) : backend_(std::move(c)) {}
  sandbox::gvisor::GvisorBackend backend_;
  sandbox::StepSpec spec_;
};

}  // namespace lw::bench
