// The canaries' host half: sets up the scratch tree and a host TCP listener,
// launches every planned canary through the backend's real launch() (the
// production path and arguments), waits under a deadline, and checks the
// host side (the outside file absent, the protected file unchanged, the
// daemon gone). Results land in BackendQualification::canaries.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "core/environment.h"
#include "host/qualification.h"
#include "sandbox/backend.h"

namespace lw::host {

struct CanaryHost {
  std::string binary;                // the loopwright binary copied into the workspace
  std::optional<std::string> image;  // a pinned image: container backends run shell canaries in it
  Environment env;                   // the environment a step's is built from
  std::string tempRoot = "/tmp";
  std::chrono::seconds deadline{10};  // per canary
};

// Runs the canaries of `backend` (whose probe is q.claimed) and fills
// q.canaries; a canary that cannot be launched is recorded as not run, with
// the launch error (and for a backend built on user namespaces the
// user-namespace diagnosis in q.userns); a backend that needs an image gets
// none without one. Never throws; the scratch tree is removed.
void runCanaries(sandbox::Backend& backend, const CanaryHost& host, BackendQualification& q);

// The first non-loopback IPv4 address of an interface that is up.
std::optional<std::string> outboundAddress();

}  // namespace lw::host
