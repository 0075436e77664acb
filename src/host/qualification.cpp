#include "host/qualification.h"

#include <algorithm>

#include "policy/model/isolation.h"

namespace lw::host {
namespace {

using sandbox::Support;
using sandbox::SupportStatus;

int rank(Support s) { return s == Support::Enforced ? 2 : (s == Support::Partial ? 1 : 0); }

SupportStatus weaker(const SupportStatus& claimed, const SupportStatus& observed) {
  if (rank(observed.support) < rank(claimed.support)) return {observed.support, "observed: " + observed.reason};
  if (rank(claimed.support) < rank(observed.support)) return {claimed.support, "claimed: " + claimed.reason};
  return {claimed.support,
          observed.support == Support::Enforced ? claimed.reason + "; canary blocked" : claimed.reason};
}

SupportStatus statusOf(const std::vector<const CanaryRecord*>& records) {
  if (records.empty()) return {Support::Absent, "not observed (no canary ran for it)"};
  SupportStatus s{Support::Enforced, ""};
  for (const CanaryRecord* r : records) {
    if (r->ran && r->held) {
      if (s.support == Support::Enforced) s.reason += (s.reason.empty() ? "" : "; ") + r->evidence;
      continue;
    }
    Support cost = r->ran ? r->failureCost : Support::Absent;
    std::string why = (r->ran ? "" : "canary could not run: ") + r->attempt + ": " + r->evidence;
    if (rank(cost) < rank(s.support))
      s = {cost, why};
    else if (cost == s.support)
      s.reason += "; " + why;
  }
  return s;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}

}  // namespace

void observeFromCanaries(BackendQualification& q) {
  for (Capability c : kAllCapabilities) {
    std::vector<const CanaryRecord*> mine;
    for (const CanaryRecord& r : q.canaries)
      // The networkIsolation claim is the default mode's: its canaries are "network none".
      if (r.target == "all" || r.target == toString(c) ||
          (c == Capability::NetworkIsolation && r.target == "network none"))
        mine.push_back(&r);
    q.observed[c] = statusOf(mine);
  }
  for (NetworkMode m : kAllNetworkModes) {
    std::vector<const CanaryRecord*> mine;
    for (const CanaryRecord& r : q.canaries)
      if (r.target == "all" || r.target == "network " + std::string(toString(m))) mine.push_back(&r);
    q.observedNetwork[m] = statusOf(mine);
  }
}

// The weaker of what was claimed and what was observed, for every key.
template <class Key, class Map, class Keys>
void settleEach(const BackendQualification& q, const Keys& keys, const Map& claimed, const Map& observed, Map& result) {
  auto at = [](const Map& m, Key k, const char* missing) {
    auto it = m.find(k);
    return it != m.end() ? it->second : SupportStatus{Support::Absent, missing};
  };
  for (Key k : keys)
    result[k] = q.claimed.available ? weaker(at(claimed, k, "not claimed"), at(observed, k, "not observed"))
                                    : SupportStatus{Support::Absent, q.claimed.unavailableReason};
}

void settle(BackendQualification& q) {
  settleEach<Capability>(q, kAllCapabilities, q.claimed.capabilities, q.observed, q.result);
  settleEach<NetworkMode>(q, kAllNetworkModes, q.claimed.networkModes, q.observedNetwork, q.resultNetwork);
}

namespace {

// Why no qualified backend gives `level` here (each that would, and what
// kept it: unavailable, or its probe saw no other kernel), or empty when one does.
std::string levelLacking(Isolation level, const std::vector<BackendQualification>& backends) {
  if (std::string missing = isolationMissing(level); !missing.empty()) return missing;
  std::string why;
  for (const BackendQualification& b : backends) {
    const BackendId id = b.claimed.backend;
    if (static_cast<int>(isolationOf(id)) < static_cast<int>(level)) continue;
    if (b.claimed.available && static_cast<int>(sandbox::observedIsolation(b.claimed)) >= static_cast<int>(level))
      return {};
    why += (why.empty() ? "" : "; ") + std::string(toString(id)) + ": " +
           (b.claimed.available ? "its probe did not see a step run on another kernel here"
                                : "unavailable: " + b.claimed.unavailableReason);
  }
  return why.empty() ? "no qualified backend would (linux-gvisor gives L3, docker L2)" : why;
}

}  // namespace

FloorVerdict evaluateFloor(const HostConfig& host, const PlatformFacts& platform,
                           const std::vector<BackendQualification>& backends) {
  FloorVerdict v;
  const Floor& floor = host.floor;
  if (!platform.supported) v.missing.push_back("platform: " + platform.unsupportedReason);
  if (floor.minIsolation)
    if (std::string lacking = levelLacking(*floor.minIsolation, backends); !lacking.empty()) {
      v.isolationUnavailable = *floor.minIsolation;
      v.missing.push_back("isolation " + describeLevel(*floor.minIsolation) + ": no backend here gives " +
                          std::string(toString(*floor.minIsolation)) + ": " + lacking);
    }
  std::vector<std::string> why;
  for (const BackendQualification& b : backends) {
    const BackendId id = b.claimed.backend;
    const std::string name(toString(id));
    if (!b.claimed.available) {
      why.push_back(name + ": unavailable (" + b.claimed.unavailableReason + ")");
      continue;
    }
    const Isolation level = sandbox::observedIsolation(b.claimed);
    if (floor.minIsolation && static_cast<int>(level) < static_cast<int>(*floor.minIsolation)) {
      why.push_back(name + ": isolation " + std::string(toString(level)) + " is below the floor's " +
                    std::string(toString(*floor.minIsolation)));
      continue;
    }
    if (b.traits.runsUnconfined && !floor.allowDirectDedicated) {
      why.push_back(name + ": forbidden by the floor (allowDirectDedicated: false)");
      continue;
    }
    if (b.traits.needsImage && host.runtimeProfiles.empty()) {
      why.push_back(name + ": no runtime profile pins an image (the only way steps reach docker)");
      continue;
    }
    std::vector<std::string> lacks;
    for (Capability c : floor.requiredCapabilities) {
      auto it = b.result.find(c);
      if (it == b.result.end() || it->second.support != sandbox::Support::Enforced)
        lacks.push_back(std::string(toString(c)) + " (" +
                        (it == b.result.end()
                             ? "not observed"
                             : std::string(sandbox::toString(it->second.support)) + ": " + it->second.reason) +
                        ")");
    }
    if (lacks.empty())
      v.satisfiedBy.push_back(id);
    else
      why.push_back(name + " does not enforce " + joined(lacks, ", "));
  }
  if (v.satisfiedBy.empty())
    v.missing.push_back("no backend meets the floor" +
                        (host.present ? " of " + host.file : std::string(" (no host config)")) + ": " +
                        joined(why, "; "));
  v.satisfied = v.missing.empty();
  return v;
}

}  // namespace lw::host
