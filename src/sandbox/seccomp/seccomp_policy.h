// The seccomp policy as data (Chromium bpf_dsl style): which system calls a
// step may not make, with which arguments, and what it gets instead. Pure: no
// libseccomp here; seccomp_filter.h compiles it, evaluate() checks it in
// userspace so the security logic is tested on any host.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/model/vocabulary.h"

namespace lw::sandbox::seccomp {

// One comparison on one system-call argument. libseccomp allows a single
// comparison per argument per rule, so a rule never holds two for one arg.
struct ArgCondition {
  enum class Op { Eq, Ne, Ge, MaskedEq };
  unsigned arg = 0;  // 0..5
  Op op = Op::Eq;
  std::uint64_t value = 0;  // compared with the 64-bit register value
  std::uint64_t mask = 0;   // MaskedEq only: (arg & mask) == value

  bool holds(std::uint64_t argValue) const;
};

// A denied call: `syscall` with every condition in `when` holding fails with
// `errnoValue` (the process goes on; a kill would hide the cause from users).
struct Rule {
  std::string syscall;  // libseccomp's name, e.g. "ioctl"
  // The native number for a call newer than the installed libseccomp knows
  // (0 = none); calls since Linux 5.1 have one number on every architecture.
  int number = 0;
  int errnoValue = 0;  // EPERM, EAFNOSUPPORT, ENOSYS
  std::vector<ArgCondition> when;
  std::string why;
};

struct Options {
  NetworkMode network = NetworkMode::None;
  // Refuse socket(AF_UNIX) too. Needed where the step sees the host's
  // filesystem (Landlock), because connect() to a path-named socket is not
  // checked by Landlock; the bridge then comes as an already-connected fd.
  bool denyNewUnixSockets = false;
  // Refuse every change of mode, owner, times and extended attributes, also
  // inside the writable paths. Needed where the step's view of host files it
  // owns is not mounted read-only (Landlock without a private mount view):
  // Landlock does not govern chmod, chown, utime or xattrs.
  bool denyMetadataChanges = false;

  auto operator<=>(const Options&) const = default;
};

struct Policy {
  std::vector<Rule> rules;  // everything else is allowed
  // Any call from another ABI (i386 via int 0x80, x32 on x86_64) kills the
  // process: the rules name native syscall numbers only.
  bool killOtherArchitectures = true;
};

// The policy every sandboxed step runs under, for these options.
Policy buildPolicy(const Options& options);

struct Verdict {
  bool denied = false;
  int errnoValue = 0;
  const Rule* rule = nullptr;  // the rule that denied it
};

// What the compiled filter does for one native call, computed from the data
// alone (first matching rule wins; the planner keeps rules of one syscall
// disjoint so that order never matters in the kernel).
Verdict evaluate(const Policy& policy, std::string_view syscall, const std::array<std::uint64_t, 6>& args);

}  // namespace lw::sandbox::seccomp
