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
    bool ipc = true;       // a private IPC namespace (System V, POSIX queues); one
                           // costs ~50 µs (sysctl tables), so it is made once
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

// The setup running enter(): a ChildSetup, or a supervisor setup for a pid
// namespace (process::SpawnRequest::supervisorSetup).
process::ChildSetup enterNamespaces(uid_t uid, gid_t gid, PreparedNamespaces::Which which);

}  // namespace lw::sandbox::landlock
