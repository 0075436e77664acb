// Why unprivileged user namespaces are refused on this host, from what bwrap
// printed and the kernel's sysctls. Pure apart from readUsernsSysctls, whose
// /proc root is a parameter, so each known cause is tested with recorded
// messages and a presented host (tests/host/userns_diagnosis_test.cpp,
// tests/sandbox/bwrap_probe_test.cpp). The bwrap probe, qualify and the
// negotiation error all say what to do from here.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lw::sandbox::bwrap {

// The sysctls that decide whether an unprivileged process may create a user
// namespace; nullopt when the file does not exist on this kernel.
struct UsernsSysctls {
  std::optional<long>
      apparmorRestrictUnprivilegedUserns;       // kernel.apparmor_restrict_unprivileged_userns (Ubuntu 23.10+)
  std::optional<long> unprivilegedUsernsClone;  // kernel.unprivileged_userns_clone (Debian patch)
  std::optional<long> maxUserNamespaces;        // user.max_user_namespaces
};

struct UsernsDiagnosis {
  bool blocked = false;  // the message is a refused user namespace
  std::string cause;     // the recognised cause, for the report
  std::string hint;      // how an admin fixes it (empty when not blocked)
};

// True when a bwrap error line says that setting up its user namespace was
// refused ("setting up uid map: Permission denied", "No permissions to
// creating new namespace", Ubuntu 24.04's "loopback: Failed RTM_NEWADDR").
bool isUsernsRefusal(std::string_view bwrapStderr);

// Classifies a failed bwrap launch. Not blocked (cause = the message) when
// the message is about something else.
UsernsDiagnosis diagnoseUserns(std::string_view bwrapStderr, const UsernsSysctls& sysctls);

// Reads the three sysctls under `procRoot` (normally "/proc"; a test
// presents a restricted host with a directory of its own).
UsernsSysctls readUsernsSysctls(const std::string& procRoot = "/proc");

}  // namespace lw::sandbox::bwrap
