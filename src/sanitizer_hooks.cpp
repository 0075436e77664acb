// Linked into loopwright and loopwright-engine. In a sanitizer build,
// LeakSanitizer's exit-time check stops the process's threads with ptrace;
// under loopwright's own seccomp filter (a `qualify` canary, `bridge stdio`
// in a sandbox) ptrace is refused, LeakSanitizer reports a fatal error and
// the process exits 1 whatever it did. There the check is off; everywhere
// else it runs as usual.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LW_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LW_ADDRESS_SANITIZER 1
#endif

#ifdef LW_ADDRESS_SANITIZER
#include <fstream>
#include <string>

extern "C" int __lsan_is_turned_off() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Seccomp:", 0) != 0) continue;
    const auto mode = line.find_first_not_of(" \t", 8);  // 0: none, 1: strict, 2: filter
    return mode != std::string::npos && line[mode] != '0' ? 1 : 0;
  }
  return 0;
}
#endif
