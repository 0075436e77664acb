/* Linked into the release executables only (scripts/build-dist.sh).
 *
 * glibc 2.36 added arc4random, and a libstdc++ built against it (GCC 12 on
 * Debian 12, where the release is built) calls it from std::random_device.
 * Linked statically, that libstdc++ would make the executables need
 * GLIBC_2.36, which Ubuntu 22.04 (glibc 2.35) does not have. These
 * definitions, over getrandom(2) (glibc 2.25), take the place of glibc's;
 * scripts/dist-check.sh fails a release that still needs a newer glibc. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/types.h>

void arc4random_buf(void* buf, size_t n) {
  unsigned char* p = buf;
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      abort(); /* like glibc's: arc4random has no way to report a failure */
    }
    p += got;
    n -= (size_t)got;
  }
}

uint32_t arc4random(void) {
  uint32_t value;
  arc4random_buf(&value, sizeof value);
  return value;
}

/* Rejection sampling: no modulo bias (as glibc's and OpenBSD's). */
uint32_t arc4random_uniform(uint32_t bound) {
  if (bound < 2) return 0;
  uint32_t min = (uint32_t)-bound % bound;
  for (;;) {
    uint32_t r = arc4random();
    if (r >= min) return r % bound;
  }
}
