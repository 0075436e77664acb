#include "sandbox/process/child_setups.h"

#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace lw::sandbox::process {
namespace {

// Raw system calls: libcap allocates, which is not allowed between fork and exec.
int dropNow() {
  bool privileged = false;
  {
    __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &hdr, data) != 0) return errno;
    privileged = (data[0].effective & (1U << CAP_SETPCAP)) != 0;
  }
  if (privileged) {
    for (int cap = 0; cap <= 63; ++cap) {
      if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return errno;
    }
    int bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
               SECBIT_KEEP_CAPS_LOCKED;
    if (::prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) return errno;
  }
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
    return errno;
  }
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[2]{};
  if (::syscall(SYS_capset, &hdr, none) != 0) return errno;
  return 0;
}

}  // namespace

ChildSetup dropAllCapabilities() { return ChildSetup{"dropping all capabilities", &dropNow}; }

}  // namespace lw::sandbox::process
