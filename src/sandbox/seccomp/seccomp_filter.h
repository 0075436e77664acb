// A seccomp Policy compiled by libseccomp into classic BPF for this machine,
// prepared in the parent and installed in the child (nsjail's split): the
// install is one system call, so it is safe between fork and exec.
#pragma once

#include <linux/filter.h>

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "core/result.h"
#include "sandbox/seccomp/seccomp_policy.h"

namespace lw::sandbox::seccomp {

class BpfProgram {
 public:
  explicit BpfProgram(std::vector<sock_filter> code) : code_(std::move(code)) {}

  const std::vector<sock_filter>& instructions() const { return code_; }

  // Installs the filter on the calling thread, irreversibly. Needs
  // no-new-privileges (or CAP_SYS_ADMIN) first. Async-signal-safe: meant for a
  // ChildSetup. Returns 0 or the errno of seccomp(2).
  int installOnCurrentThread() const noexcept;

  // A sealed memfd (close-on-exec, offset 0) holding the program, for
  // `bwrap --seccomp FD`. The caller owns the descriptor and must move it
  // below the exec boundary itself. Fails with SANDBOX_LAUNCH_FAILED.
  Result<int> toSealedMemfd() const;

 private:
  std::vector<sock_filter> code_;
};

// Compiles the policy for the native architecture, other architectures
// killed. Fails with SANDBOX_LAUNCH_FAILED when libseccomp does not know a
// denied system call (an old libseccomp: failing closed beats dropping a rule).
Result<BpfProgram> compile(const Policy& policy);

// The filter of buildPolicy(options), compiled on first use and shared by
// every later launch. Thread-safe: the steps of a stage launch in parallel.
// A compile failure is returned, not cached.
class FilterCache {
 public:
  Result<std::shared_ptr<const BpfProgram>> get(const Options& options);

 private:
  std::mutex mu_;
  std::map<Options, std::shared_ptr<const BpfProgram>> compiled_;
};

}  // namespace lw::sandbox::seccomp
