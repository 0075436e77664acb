// Only in LOOPWRIGHT_SANITIZE builds (the test suite's). LeakSanitizer stops
// the world with ptrace, which the sandbox's seccomp filter refuses: inside a
// step (`loopwright bridge stdio`) it would die with "LeakSanitizer has
// encountered a fatal error" and fail the step. Leak checking stays on for
// the orchestrator and for every test binary.
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

// True when LOOPWRIGHT_BRIDGE is in this process's environment. The sanitizer
// runtime asks for its options before libc's getenv works, so this reads
// /proc/self/environ with plain system calls and a static buffer.
// Runs before the sanitizer runtime is initialised: must not be instrumented.
__attribute__((no_sanitize("address", "undefined"))) bool insideStep() {
  static char buf[65536];
  // Raw system calls: the sanitizer's interceptors of open/read are not ready.
  long fd = ::syscall(SYS_openat, AT_FDCWD, "/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = ::syscall(SYS_read, fd, buf, sizeof buf - 1);
  ::syscall(SYS_close, fd);
  if (n <= 0) return false;
  // No libc string functions: their sanitizer interceptors are not ready yet.
  const char kName[] = "LOOPWRIGHT_BRIDGE=";
  ssize_t start = 0;
  for (ssize_t i = 0; i <= n; ++i) {
    if (i < n && buf[i] != '\0') continue;
    ssize_t k = 0;
    while (kName[k] != '\0' && start + k < i && buf[start + k] == kName[k]) ++k;
    if (kName[k] == '\0') return true;
    start = i + 1;
  }
  return false;
}

}  // namespace

extern "C" __attribute__((no_sanitize("address", "undefined"))) const char* __asan_default_options() {
  return insideStep() ? "detect_leaks=0" : "";
}
extern "C" __attribute__((no_sanitize("address", "undefined"))) const char* __lsan_default_options() {
  return __asan_default_options();
}

// libgit2 1.5's git_regexp_match (PCRE2 backend) returns on "no match" without
// freeing its match data: opening a repository with repositoryformatversion 1
// (a partial clone, worktreeConfig) leaks one per config key that is not an
// extension. Not ours to fix; PCRE2 is reached only through libgit2 here.
extern "C" __attribute__((no_sanitize("address", "undefined"))) const char* __lsan_default_suppressions() {
  return "leak:libpcre2-8.so\n";
}
