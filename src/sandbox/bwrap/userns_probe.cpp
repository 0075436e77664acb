#include "sandbox/bwrap/userns_probe.h"

#include <array>
#include <fstream>

namespace lw::sandbox::bwrap {
namespace {

std::optional<long> readLong(const std::string& path) {
  std::ifstream in(path);
  long v = 0;
  if (!(in >> v)) return std::nullopt;
  return v;
}

std::string firstLine(std::string_view s) {
  std::string line(s.substr(0, s.find('\n')));
  return line.empty() ? "no message" : line;
}

}  // namespace

bool isUsernsRefusal(std::string_view msg) {
  // bwrap's own wording across 0.4–0.11 (bubblewrap.c: "No permissions to
  // creating new namespace, likely because the kernel does not allow
  // non-privileged user namespaces"; the uid map write fails with EPERM when
  // an LSM denies the namespace's capabilities). Ubuntu 24.04's AppArmor
  // restriction lets the namespace be created but strips its capabilities,
  // so bwrap first fails configuring loopback (RTM_NEWADDR) or the uid map.
  static constexpr std::array<std::string_view, 7> kMarkers = {"No permissions to creating new namespace",
                                                               "No permissions to create new namespace",
                                                               "setting up uid map: Permission denied",
                                                               "setting up gid map: Permission denied",
                                                               "loopback: Failed RTM_NEWADDR: Operation not permitted",
                                                               "Creating new namespace failed",
                                                               "unshare failed: Operation not permitted"};
  for (std::string_view m : kMarkers)
    if (msg.find(m) != std::string_view::npos) return true;
  return false;
}

UsernsDiagnosis diagnoseUserns(std::string_view msg, const UsernsSysctls& s) {
  UsernsDiagnosis d;
  if (!isUsernsRefusal(msg)) {
    d.cause = firstLine(msg);
    return d;
  }
  d.blocked = true;
  if (s.apparmorRestrictUnprivilegedUserns.value_or(0) == 1) {
    d.cause =
        "unprivileged user namespaces are restricted by AppArmor "
        "(kernel.apparmor_restrict_unprivileged_userns=1, the Ubuntu 23.10+/24.04 default)";
    d.hint =
        "install the AppArmor profile for bwrap that loopwright ships as dist/apparmor/bwrap "
        "(sudo install -m 644 dist/apparmor/bwrap /etc/apparmor.d/bwrap && "
        "sudo apparmor_parser -r /etc/apparmor.d/bwrap), or set "
        "sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0, or list linux-landlock in "
        "preferredBackends (no user namespace needed); README: Ubuntu 23.10 / 24.04";
  } else if (s.unprivilegedUsernsClone && *s.unprivilegedUsernsClone == 0) {
    d.cause = "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0)";
    d.hint = "set kernel.unprivileged_userns_clone=1, or use linux-landlock";
  } else if (s.maxUserNamespaces && *s.maxUserNamespaces == 0) {
    d.cause = "user namespaces are disabled (user.max_user_namespaces=0)";
    d.hint = "set user.max_user_namespaces to a positive limit, or use linux-landlock";
  } else {
    d.cause = "user namespaces are refused (" + firstLine(msg) +
              "); no sysctl explains it: a seccomp profile or an LSM of an enclosing container?";
    d.hint = "run the runner outside a restricting container, or use linux-landlock";
  }
  return d;
}

UsernsSysctls readUsernsSysctls(const std::string& procRoot) {
  UsernsSysctls s;
  s.apparmorRestrictUnprivilegedUserns = readLong(procRoot + "/sys/kernel/apparmor_restrict_unprivileged_userns");
  s.unprivilegedUsernsClone = readLong(procRoot + "/sys/kernel/unprivileged_userns_clone");
  s.maxUserNamespaces = readLong(procRoot + "/sys/user/max_user_namespaces");
  return s;
}

}  // namespace lw::sandbox::bwrap
