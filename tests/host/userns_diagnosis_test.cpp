#include <doctest/doctest.h>

#include "host/userns_diagnosis.h"

using namespace lw::host;

namespace {
// Recorded from bubblewrap 0.8.0/0.9.0 on the hosts named.
const char* kUbuntu2404Loopback = "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\n";
const char* kUbuntu2404UidMap = "bwrap: setting up uid map: Permission denied\n";
const char* kDebianCloneOff =
    "bwrap: No permissions to creating new namespace, likely because the kernel does not allow "
    "non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl "
    "kernel.unprivileged_userns_clone=1'.\n";
const char* kMaxZero = "bwrap: Creating new namespace failed: No space left on device\n";
}  // namespace

TEST_CASE("userns diagnosis: Ubuntu 24.04's AppArmor restriction is named from either bwrap message") {
  UsernsSysctls s;
  s.apparmorRestrictUnprivilegedUserns = 1;
  s.maxUserNamespaces = 63000;
  for (const char* msg : {kUbuntu2404Loopback, kUbuntu2404UidMap}) {
    CAPTURE(msg);
    UsernsDiagnosis d = diagnoseUserns(msg, s);
    CHECK(d.blocked);
    CHECK(d.cause.find("apparmor_restrict_unprivileged_userns=1") != std::string::npos);
    CHECK(d.hint.find("AppArmor profile") != std::string::npos);
  }
}

TEST_CASE("userns diagnosis: Debian's unprivileged_userns_clone=0 and max_user_namespaces=0") {
  UsernsSysctls debian;
  debian.unprivilegedUsernsClone = 0;
  UsernsDiagnosis d = diagnoseUserns(kDebianCloneOff, debian);
  CHECK(d.blocked);
  CHECK(d.cause == "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0)");

  UsernsSysctls zero;
  zero.maxUserNamespaces = 0;
  d = diagnoseUserns(kMaxZero, zero);
  CHECK(d.blocked);
  CHECK(d.cause == "user namespaces are disabled (user.max_user_namespaces=0)");
}

TEST_CASE("userns diagnosis: refused with no sysctl to blame says so, other failures are not userns") {
  UsernsDiagnosis d = diagnoseUserns(kUbuntu2404UidMap, UsernsSysctls{});
  CHECK(d.blocked);
  CHECK(d.cause.find("no sysctl explains it") != std::string::npos);

  d = diagnoseUserns("bwrap: Can't find source path /nope: No such file or directory\nmore", UsernsSysctls{});
  CHECK_FALSE(d.blocked);
  CHECK(d.cause == "bwrap: Can't find source path /nope: No such file or directory");
  CHECK(d.hint.empty());
  CHECK_FALSE(isUsernsRefusal(""));
}

TEST_CASE("userns diagnosis: sysctls are read from a proc root, missing files are nullopt") {
  UsernsSysctls s = readUsernsSysctls("/nonexistent-proc");
  CHECK_FALSE(s.apparmorRestrictUnprivilegedUserns);
  CHECK_FALSE(s.maxUserNamespaces);
}
