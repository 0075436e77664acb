// readEnvironOf from /proc (Linux); macOS: tree_mark_darwin.cpp.
#include "sandbox/process/posix/tree_mark.h"

#if !defined(__APPLE__)

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "core/unique_fd.h"

namespace lw::sandbox::process::posix {
namespace {

// The environment a program starts with is at most ARG_MAX-sized, and a
// mark looked for in the first 256 KiB is found unless a step's environment
// is huge and the mark was placed last.
constexpr std::size_t kEnvironPrefix = 256 * 1024;

}  // namespace

std::optional<std::string> readEnvironOf(pid_t pid) {
  // Readable with ptrace-read access: the same user (not a setuid program,
  // not made non-dumpable), or root.
  UniqueFd fd(::open(("/proc/" + std::to_string(pid) + "/environ").c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  std::string out;
  char buf[16384];
  while (out.size() < kEnvironPrefix) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace lw::sandbox::process::posix

#endif
