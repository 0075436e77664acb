// Which live canaries qualification runs for one backend, with which step
// shape, and what each must show. Pure: the layout of the scratch directory
// and the claims come in; canary_runner.h carries the plan out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sandbox/backend.h"

namespace lw::host {

// The scratch tree of one backend's canaries (all host paths):
//   root/secret          outside the view, holds `secret`
//   root/outside/        outside the view, must stay empty
//   root/out/            the step's out dir
//   ws/                  the workspace (read-only); ws/denied holds `secret`
//   ws/w/                the step's writable tree; ws/w/prot is protected
struct CanaryLayout {
  std::string root;
  std::string ws;
  std::string secret;
  std::string binary;                     // the canary program inside ws (host backends)
  int hostPort = 0;                       // a host TCP listener on every address
  std::optional<std::string> outboundIp;  // a non-loopback address of the host, if any
  int hostPid = 0;                        // the qualifying process: a host process of the step's user
};

enum class HostCheck { None, OutsideFileAbsent, ProtectedUnchanged, DaemonGone };

struct CanaryCase {
  std::string target;   // capability name or "network <mode>"
  std::string attempt;  // in words
  std::string name;     // canary_program.h case
  std::vector<std::string> args;
  bool expectBlocked = true;
  sandbox::Support failureCost = sandbox::Support::Absent;
  bool writable = false;     // ws/w is a writable path
  bool protectProt = false;  // ws/w/prot listed as a protected path
  NetworkMode network = NetworkMode::None;
  HostCheck hostCheck = HostCheck::None;
};

// The canaries for every target the backend claims at least partially
// (a target claimed absent is absent whatever a canary shows). `shell`:
// the backend runs a container image, so the loopback round trip, which
// needs a listener the image may not have, is left out.
std::vector<CanaryCase> planCanaries(const sandbox::ProbeReport& claimed, const CanaryLayout& layout, bool shell);

// The argv that runs `c`: the loopwright binary in canary mode, or for a
// container image a /bin/sh script doing the same with busybox-level tools.
std::vector<std::string> canaryArgv(const CanaryCase& c, const CanaryLayout& layout, bool shell);

}  // namespace lw::host
