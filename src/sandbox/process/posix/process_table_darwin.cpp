// The table from the kern.proc sysctl (macOS); see process_table_proc.cpp.
#include "sandbox/process/posix/process_table.h"

#if defined(__APPLE__)

#include <sys/sysctl.h>
#include <unistd.h>

namespace lw::sandbox::process::posix {

std::vector<ProcessEntry> readProcessTable() {
  int mib[] = {CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0};
  // The table grows between the size query and the read: retry with room.
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::size_t size = 0;
    if (::sysctl(mib, 3, nullptr, &size, nullptr, 0) != 0) return {};
    size += size / 4 + sizeof(kinfo_proc) * 16;
    std::vector<kinfo_proc> procs(size / sizeof(kinfo_proc));
    if (::sysctl(mib, 3, procs.data(), &size, nullptr, 0) != 0) continue;
    procs.resize(size / sizeof(kinfo_proc));
    std::vector<ProcessEntry> out;
    out.reserve(procs.size());
    for (const kinfo_proc& p : procs) {
      ProcessEntry e;
      e.pid = p.kp_proc.p_pid;
      e.ppid = p.kp_eproc.e_ppid;
      e.pgid = p.kp_eproc.e_pgid;
      // kinfo_proc's session is a kernel pointer; the id is asked of getsid.
      e.sid = ::getsid(e.pid);
      e.started = static_cast<std::uint64_t>(p.kp_proc.p_starttime.tv_sec) * 1000000u +
                  static_cast<std::uint64_t>(p.kp_proc.p_starttime.tv_usec);
      e.zombie = p.kp_proc.p_stat == SZOMB;
      if (e.pid > 0) out.push_back(e);
    }
    return out;
  }
  return {};
}

}  // namespace lw::sandbox::process::posix

#endif
