// What linux-landlock can enforce on this host: observed in a forked child
// (namespaces entered, a Landlock domain refusing a read, the seccomp filter
// refusing a call), then classified by a pure function that is table-tested.
#pragma once

#include "sandbox/backend.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::landlock {

struct Observation {
  int abi = 0;                     // landlock_create_ruleset(VERSION)
  bool landlockRestricts = false;  // a domain without read rights made open("/") fail
  bool namespaces = false;         // (user+) mount+net+pid+IPC entered, maps written, lo up
  bool pidNamespaceInit = false;   // a child forked there was pid 1
  bool privateView = false;        // ... and set up the private view (private_view.h)
  bool seccompFilters = false;     // the compiled filter made ptrace() fail with EPERM
  bool subreaper = false;          // PR_SET_CHILD_SUBREAPER and /proc/thread-self/children
  std::string failure;             // why the probe child could not run, if it could not
};

// Forks once and observes. `filter` is the program the backend will load;
// `userNamespace` as launch() will enter one (false: the caller is root).
Observation observeHost(const seccomp::BpfProgram& filter, bool userNamespace);

// The report for an observation. Pure.
ProbeReport classify(const Observation& o);

}  // namespace lw::sandbox::landlock
