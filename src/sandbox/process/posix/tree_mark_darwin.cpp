// readEnvironOf from the kern.procargs2 sysctl (macOS); see tree_mark_proc.cpp.
#include "sandbox/process/posix/tree_mark.h"

#if defined(__APPLE__)

#include <sys/sysctl.h>

namespace lw::sandbox::process::posix {

std::optional<std::string> readEnvironOf(pid_t pid) {
  // Another user's process is refused (EINVAL). XNU leaves the environment
  // out of a cs_restricted process's answer (kern_sysctl.c,
  // sysctl_procargsx: omit_env_vars): there the mark is not seen.
  int argmaxMib[] = {CTL_KERN, KERN_ARGMAX};
  int argmax = 0;
  std::size_t size = sizeof argmax;
  if (::sysctl(argmaxMib, 2, &argmax, &size, nullptr, 0) != 0 || argmax <= 0) return std::nullopt;
  std::string buf(static_cast<std::size_t>(argmax), '\0');
  int mib[] = {CTL_KERN, KERN_PROCARGS2, static_cast<int>(pid)};
  size = buf.size();
  if (::sysctl(mib, 3, buf.data(), &size, nullptr, 0) != 0) return std::nullopt;
  buf.resize(size);
  const auto block = environOfProcArgs(buf);
  if (!block) return std::nullopt;
  return std::string(*block);
}

}  // namespace lw::sandbox::process::posix

#endif
