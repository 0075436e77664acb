// A host qualification: the host's facts, and per backend what it claims
// (its probe) next to what the live canaries observed inside the real
// sandbox, and the verdict against the admin's floor. A capability counts as
// enforced only when the claim says so AND its canary was observed blocked.
// Everything here is pure; qualify.h gathers it.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/host_facts.h"
#include "policy/model/host_config.h"
#include "sandbox/backend.h"

namespace lw::host {

inline constexpr int kQualificationSchemaVersion = 1;

// One live attempt inside a sandbox.
struct CanaryRecord {
  std::string target;         // "filesystemReadContainment", "network none", …
  std::string attempt;        // what was tried, in words
  bool expectBlocked = true;  // false: an allowed thing that must work
  bool ran = false;           // the canary ran to a verdict
  bool held = false;          // the expectation held (blocked, or worked when allowed)
  // What a failed expectation costs the target: absent, or only partial
  // (allow-outbound reaching the host's loopback is a known weakness).
  sandbox::Support failureCost = sandbox::Support::Absent;
  std::string evidence;  // the canary's line and the host-side check
};

struct BackendQualification {
  sandbox::ProbeReport claimed;
  sandbox::BackendTraits traits;  // the floor treats some kinds of backend apart
  std::map<Capability, sandbox::SupportStatus> observed;
  std::map<NetworkMode, sandbox::SupportStatus> observedNetwork;
  std::map<Capability, sandbox::SupportStatus> result;  // the weaker of claimed and observed
  std::map<NetworkMode, sandbox::SupportStatus> resultNetwork;
  std::vector<CanaryRecord> canaries;
  std::vector<std::string> notes;  // e.g. Docker socket access is root-equivalent
  std::optional<UsernsDiagnosis> userns;
  std::int64_t durationMs = 0;
};

struct FloorVerdict {
  bool satisfied = false;
  std::vector<std::string> missing;    // what is missing, one sentence each
  std::vector<BackendId> satisfiedBy;  // backends that meet the floor here
  // The floor's level when no backend of this version gives it (L3).
  std::optional<Isolation> isolationUnavailable;
};

struct Qualification {
  int schemaVersion = kQualificationSchemaVersion;
  std::string loopwrightVersion;
  std::string hostConfigFile;  // empty: none
  HostFacts facts;
  std::vector<BackendQualification> backends;
  FloorVerdict verdict;
  std::string fingerprint;
  std::int64_t qualifiedAt = 0;  // unix seconds of the fresh run
  std::int64_t durationMs = 0;   // of the fresh run
  bool fromCache = false;
};

// Observed status per target from the canaries that aimed at it: enforced
// when every one ran and held; otherwise the worst failure's cost, with its
// evidence as the reason. A target no canary aimed at is absent ("not observed").
void observeFromCanaries(BackendQualification& q);

// result = the weaker of claimed and observed, per capability and network
// mode; a backend that is not available has every result absent.
void settle(BackendQualification& q);

// Whether some backend satisfies the floor of `host` on this platform:
// isolation at least the floor's minimum, every floor capability enforced
// (as settled), a backend that runs unconfined (direct-dedicated) only when
// the floor allows it, one that needs an image (docker) only when the host
// config pins a runtime profile. Names what is missing; a
// level no backend of this version gives (L3) first, with what it needs.
FloorVerdict evaluateFloor(const HostConfig& host, const PlatformFacts& platform,
                           const std::vector<BackendQualification>& backends);

}  // namespace lw::host
