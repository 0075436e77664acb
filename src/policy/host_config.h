// The runner admin's host config (/etc/loopwright/host.yaml or
// $LOOPWRIGHT_HOST_CONFIG): a floor no repository can lower, the container
// images a step may use, and where loopwright keeps its state.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/vocabulary.h"

namespace lw {

inline constexpr std::string_view kDefaultHostConfigPath = "/etc/loopwright/host.yaml";
inline constexpr std::string_view kDefaultStateDir = "/var/lib/loopwright";

struct Floor {
  std::optional<Isolation> minIsolation;
  std::vector<Capability> requiredCapabilities;
  // No host config: true (GitHub Actions' default on a GitHub-hosted runner
  // works). A host config that does not say `allowDirectDedicated: true`
  // forbids it: an admin who wrote one runs a host worth protecting.
  bool allowDirectDedicated = true;
};

struct RuntimeProfile {
  std::string name;
  std::string image;  // "repo@sha256:<64 hex>" — a tag alone is rejected
  std::vector<std::string> extraReadOnlyPaths;
};

struct HostConfig {
  std::string file;  // empty when no file exists (no floor)
  bool present = false;
  Floor floor;
  std::map<std::string, RuntimeProfile> runtimeProfiles;
  std::string stateDir = std::string(kDefaultStateDir);
};

}  // namespace lw
