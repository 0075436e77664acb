// Entering new namespaces in the child, the way `unshare -Ur` does: a user
// namespace where the step keeps its own uid/gid (mapped 1:1) unless the
// caller holds CAP_SYS_ADMIN already (root needs none), IPC, and as asked a
// mount namespace (see private_view.h), a network namespace with only lo up,
// and a pid namespace whose init is the step. Prepared in the parent;
// everything in the child is async-signal-safe.
#pragma once

#include <sys/types.h>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::landlock {

class PreparedNamespaces {
 public:
  struct Which {
    bool user = true;      // false: the caller holds CAP_SYS_ADMIN (root)
    bool mount = false;    // a mount namespace for the private view
    bool network = false;  // a private network namespace with lo up
    bool pid = false;      // a pid namespace (the step becomes its init)
  };
  PreparedNamespaces(uid_t uid, gid_t gid, Which which);

  // unshare(2) of (user +) IPC (+ mount, network, pid) namespaces, uid/gid
  // maps, lo up. The caller stays in its pid namespace: only what it forks afterwards
  // is inside (see stepAsPidNamespaceInit). Returns 0 or an errno.
  int enter() const noexcept;

 private:
  char uidMap_[48] = {};
  char gidMap_[48] = {};
  Which which_;
};

// The ChildSetup running enter().
process::ChildSetup enterNamespaces(uid_t uid, gid_t gid, PreparedNamespaces::Which which);

// After enterNamespaces with a pid namespace: forks; the new process (pid 1
// there, SIGKILLed if this one dies) returns 0 and goes on to become the step;
// this one closes every descriptor, waits, and exits as the step did. When
// the step exits the kernel kills whatever it left in its namespace.
process::ChildSetup stepAsPidNamespaceInit();

}  // namespace lw::sandbox::landlock
