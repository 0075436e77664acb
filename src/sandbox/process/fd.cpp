#include "sandbox/process/fd.h"

#include <fcntl.h>

#include <cerrno>

namespace lw::sandbox::process {

bool makePipe(Fd& readEnd, Fd& writeEnd) {
  int p[2];
#if defined(__APPLE__)
  // No pipe2 on macOS; the POSIX launcher closes every other descriptor in
  // the child anyway (POSIX_SPAWN_CLOEXEC_DEFAULT).
  if (::pipe(p) != 0) return false;
  ::fcntl(p[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(p[1], F_SETFD, FD_CLOEXEC);
#else
  if (::pipe2(p, O_CLOEXEC) != 0) return false;
#endif
  readEnd.reset(p[0]);
  writeEnd.reset(p[1]);
  return true;
}

void pump(Fd& fd, BoundedCapture& capture) {
  char buf[65536];
  for (;;) {
    ssize_t r = ::read(fd.get(), buf, sizeof buf);
    if (r > 0) {
      capture.append(buf, static_cast<std::size_t>(r));
      if (static_cast<std::size_t>(r) < sizeof buf) return;
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && errno == EAGAIN) return;
    fd.reset();
    return;
  }
}

}  // namespace lw::sandbox::process
