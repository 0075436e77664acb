// Pipes of owned file descriptors, and reading whatever a pipe holds into a capture.
#pragma once

#include "core/unique_fd.h"
#include "sandbox/process/capture.h"

namespace lw::sandbox::process {

// The tree's one descriptor owner, under the name the launchers use.
using Fd = UniqueFd;

// A close-on-exec pipe; false (errno set) when pipe2 fails.
bool makePipe(Fd& readEnd, Fd& writeEnd);

// Reads what a non-blocking pipe holds into `capture`; closes `fd` at EOF or
// on an error other than EAGAIN/EINTR.
void pump(Fd& fd, BoundedCapture& capture);

}  // namespace lw::sandbox::process
