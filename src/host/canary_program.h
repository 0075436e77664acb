// The canaries' inside half: what `loopwright qualify --canary CASE -- ARGS`
// does when qualification runs the loopwright binary itself inside a real
// sandbox (so a production host needs no test programs). Each case attempts
// one thing the sandbox must refuse and prints one line:
//   "blocked: <what>: <errno text>"  exit 0 — refused, as it must be
//   "ESCAPED: <what>"                exit 1 — it worked: not contained
//   "setup: <what>"                  exit 2 — the canary itself could not run
// The host half (canary_runner.h) also checks the host side of each attempt.
#pragma once

#include <string>
#include <vector>

namespace lw::host {

inline constexpr int kCanaryBlocked = 0;
inline constexpr int kCanaryEscaped = 1;
inline constexpr int kCanarySetup = 2;

// Cases:
//   read SECRET PATH…          no PATH may be read with SECRET in it
//   write-outside OUT IN       OUT must not be writable; IN (in the workspace) must be
//   write-protected PROT TMP   PROT must not be truncated, replaced (rename TMP over it) or removed
//   connect IP PORT            a TCP connect must fail
//   connect-ok IP PORT         a TCP connect must work (allowed outbound)
//   loopback                   a round trip on the sandbox's own 127.0.0.1 must work
//   daemon BEAT                leaves a daemon appending to BEAT (its pid first): the middle
//                              process calls setsid, forks and exits at once; the daemon
//                              calls setsid and runs loopwright anew (daemon-beat BEAT)
//   seccomp                    a filter is installed and keyctl(2) is refused
int runCanary(const std::string& name, const std::vector<std::string>& args);

}  // namespace lw::host
