// The runner admin's host config (/etc/loopwright/host.yaml or
// $LOOPWRIGHT_HOST_CONFIG): a floor no repository can lower, the container
// images a step may use, and where loopwright keeps its state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/model/egress_rule.h"
#include "policy/model/vocabulary.h"

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
  // The most a step's egress list may allow (floor.egress): each entry of a
  // step's list must be covered by one here. Absent: no such limit.
  std::optional<std::vector<EgressRule>> egress;
};

// How the egress proxy treats every step on this host (egress:).
struct EgressSettings {
  std::vector<AllowedNetwork> allowedNetworks;    // non-public networks a listed name may resolve to
  std::int64_t maxConnections = 256;              // per step
  std::int64_t maxBytes = std::int64_t{4} << 30;  // per step, both directions
};

struct RuntimeProfile {
  std::string name;
  std::string image;  // "repo@sha256:<64 hex>" — a tag alone is rejected
  std::vector<std::string> extraReadOnlyPaths;
};

// Where the ownership leases live (docs/leases.md, "Stores: local, etcd and
// Kubernetes"; docs/host-config.md, `leases:`). The local store is one
// machine's; etcd and Kubernetes are shared by runners on several machines.
enum class LeaseStoreKind { Local, Etcd, Kubernetes };

struct LeaseStoreConfig {
  LeaseStoreKind store = LeaseStoreKind::Local;
  std::string localDir;                            // the local store's directory; empty: <stateDir>/leases
  std::string endpoint = "http://127.0.0.1:2379";  // etcd's JSON gateway: http only to loopback
  std::string prefix = "/loopwright/leases/";      // one key per resource: <prefix><resource>
  std::int64_t maxClockSkewMs = 2000;              // another holder's lease counts as expired this much later
  // Kubernetes: the Lease objects' namespace (empty: the kubeconfig's or the
  // service account's), a kubeconfig (empty: the in-cluster service account)
  // and its context (empty: current-context), and the object name prefix.
  std::string kubeNamespace;
  std::string kubeconfig;
  std::string kubeContext;
  std::string namePrefix = "loopwright-";
};

// Why `endpoint` cannot be an etcd endpoint, or "" when it can: it must be
// http(s)://host[:port] with no path, user or query, and plain http only to
// this machine (core/http_policy.h: nothing crosses a network in clear text).
std::string leaseEndpointProblem(std::string_view endpoint);

// Why `prefix` cannot be a key prefix, or "" when it can: 1 to 256 bytes of
// printable ASCII ending in '/' (so that /leases/ never lists /leases2/).
std::string leasePrefixProblem(std::string_view prefix);

// Why `ns` cannot be a Kubernetes namespace (a DNS-1123 label), or "".
std::string kubeNamespaceProblem(std::string_view ns);

// Why `prefix` cannot start the Lease object names, or "": 1 to 63 of
// [a-z0-9-] starting with a letter or digit (the rest of the name is
// lease/k8s_lease_json.h's).
std::string kubeNamePrefixProblem(std::string_view prefix);

// The cluster the k8s-pod backend runs steps on (docs/kubernetes.md; host
// config `kubernetes:`): the namespace, the RuntimeClass (gVisor or Kata),
// the image every pod runs (pinned by digest), and the credentials as the
// Kubernetes lease store reads them (a kubeconfig, else the in-cluster
// service account).
struct K8sPodHostConfig {
  std::string ns;
  std::string runtimeClassName;
  std::string image;
  std::string kubeconfig;
  std::string context;
};

struct HostConfig {
  std::string file;  // empty when no file exists (no floor)
  bool present = false;
  Floor floor;
  std::map<std::string, RuntimeProfile> runtimeProfiles;
  std::string stateDir = std::string(kDefaultStateDir);
  LeaseStoreConfig leases;
  EgressSettings egress;
  std::optional<K8sPodHostConfig> kubernetes;  // nullopt: k8s-pod is unavailable
};

}  // namespace lw
