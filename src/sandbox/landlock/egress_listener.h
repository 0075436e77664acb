// networkMode allow-list on linux-landlock (docs/egress.md). The step has
// its own network namespace with loopback only, and Landlock cannot keep a
// new unix socket from the host's sockets (connect() is not a Landlock
// right), so the step may open none: its seccomp filter refuses AF_UNIX.
// Its way out is a TCP listener on 127.0.0.1:<port> of that namespace,
// created by the step's child before anything of the step runs and handed
// out over a socket pair to loopwright, which alone holds it and carries
// each connection to the step's egress proxy (egress/step_relay.h). Inside
// the sandbox there is then nothing to kill, ptrace or misuse: the listener
// is the only thing the namespace has besides loopback.
#pragma once

#include "core/result.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::landlock {

// The child's half (async-signal-safe): listen on 127.0.0.1:`port` in the
// current network namespace, send the listener over `channel` (a datagram
// socket of the pair), close both. Run after the namespace is entered.
process::ChildSetup handOutEgressListener(int channel, unsigned short port);

// loopwright's half, once the step has started: the listener the child
// sent over `channel`, or SANDBOX_LAUNCH_FAILED when none came.
Result<int> receiveEgressListener(int channel);

}  // namespace lw::sandbox::landlock
