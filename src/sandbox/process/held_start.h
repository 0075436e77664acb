// A launched sandbox whose command waits on a gate: the sandbox is built at
// once, and its first process (loopwright-step-init --gate) execs the command
// only when a byte arrives; at end of file it exits and the command never
// runs. This end of the gate lives here: every way out but resume() kills the
// process first, so a held command never starts unless resumed.
#pragma once

#include <memory>

#include "sandbox/process/fd.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

// `inner`, held until resume() sends a byte on `gate` (one end of a stream
// socket pair whose other end the step init waits on; a socket, so that a
// sandbox already gone is an error, not SIGPIPE). wait() on a process still
// held kills it first.
std::unique_ptr<RunningProcess> holdingStart(std::unique_ptr<RunningProcess> inner, Fd gate);

}  // namespace lw::sandbox::process
