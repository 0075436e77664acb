// What builtin/reproduce's agent gives up before it starts an issue's
// reproduction beside itself, in the same sandbox and as the same user:
// whatever of the agent the reproduction could read or use.
#pragma once

#include <ostream>
#include <string>

#include "core/result.h"

namespace lw::agents::reproduce {

// Irreversible, for the whole process: makes it non-dumpable (no
// /proc/<pid>/mem, no ptrace where the kernel honours it), unlinks the
// bridge socket path `bridge` (empty or "fd:N": nothing to unlink) so that
// nothing started later can call a tool, and erases the process's
// environment — the block /proc/<pid>/environ reads, which gVisor's kernel
// shows to any process of the sandbox whether the owner is dumpable or not —
// and empties environ. Read what is needed from the environment first.
// IO_ERROR when /proc/self/environ still holds a byte of it afterwards
// (a variable replaced after the start keeps its first value in the block):
// the reproduction must then not be started.
Status shutOutTheReproduction(const std::string& bridge, std::ostream& log);

}  // namespace lw::agents::reproduce
