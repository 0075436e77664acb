#include "core/unique_fd.h"

#include <fcntl.h>

namespace lw {

bool makePipe(UniqueFd& readEnd, UniqueFd& writeEnd) {
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

}  // namespace lw
