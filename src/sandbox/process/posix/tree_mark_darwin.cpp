// readEnvironOf from the kern.procargs2 sysctl (macOS); see tree_mark_proc.cpp.
#include "sandbox/process/posix/tree_mark.h"

#if defined(__APPLE__)

#include <sys/sysctl.h>

namespace lw::sandbox::process::posix {

std::optional<std::string> readEnvironOf(pid_t pid) {
  // Another user's process is refused (EINVAL). XNU leaves the environment
  // out of a cs_restricted process's answer (kern_sysctl.c,
  // sysctl_procargsx: omit_env_vars): there the mark is not seen.
  int mib[] = {CTL_KERN, KERN_PROCARGS2, static_cast<int>(pid)};
  // Asked for its size first: kern.argmax (1 MiB) for each of the hundreds
  // of processes the first look reads would cost more than the reads.
  std::size_t size = 0;
  if (::sysctl(mib, 3, nullptr, &size, nullptr, 0) != 0 || size == 0) return std::nullopt;
  std::string buf(size + 4096, '\0');  // room for an exec in between
  size = buf.size();
  if (::sysctl(mib, 3, buf.data(), &size, nullptr, 0) != 0) return std::nullopt;
  buf.resize(size);
  // A shape not understood (an exec with a larger area in between): none
  // seen, so that the next look reads it again.
  const auto block = environOfProcArgs(buf);
  return block ? std::string(*block) : std::string();
}

}  // namespace lw::sandbox::process::posix

#endif
