#include "policy/load/host_config_loader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <exception>
#include <optional>
#include <utility>

#include "core/file_io.h"
#include "core/http_policy.h"
#include "policy/load/egress_reader.h"
#include "policy/load/sandbox_spec_reader.h"
#include "policy/yaml/yaml_document.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {
namespace {

std::vector<std::string_view> capabilityNames() {
  std::vector<std::string_view> names;
  for (Capability c : kAllCapabilities) names.push_back(toString(c));
  return names;
}

void readFloor(YamlSchemaReader& reader, const YAML::Node& node, Floor& floor) {
  auto entries =
      reader.mapping(node, "floor", {"minIsolation", "requiredCapabilities", "allowDirectDedicated", "egress"});
  if (!entries) return;
  for (const MapEntry& e : *entries) {
    std::string p = childPath("floor", e.key);
    if (e.key == "minIsolation") {
      if (auto s = reader.oneOf(e.value, p, {"L1", "L2", "L3"})) floor.minIsolation = parseIsolation(*s);
    } else if (e.key == "requiredCapabilities") {
      if (auto list = reader.stringList(e.value, p, 0, 6, capabilityNames()))
        for (const auto& s : *list) floor.requiredCapabilities.push_back(*parseCapability(s));
    } else if (e.key == "allowDirectDedicated") {
      if (auto b = reader.boolean(e.value, p)) floor.allowDirectDedicated = *b;
    } else if (e.key == "egress") {
      floor.egress = readEgressList(reader, e.value, p);
    }
  }
}

void readStateDir(YamlSchemaReader& reader, const YAML::Node& node, HostConfig& config) {
  auto s = reader.string(node, "stateDir", 4096);
  if (!s) return;
  if (!s->starts_with("/"))
    reader.error(node, "stateDir", "'" + *s + "' is not an absolute path",
                 "the state directory must be absolute, e.g. /var/lib/loopwright");
  else
    config.stateDir = *s;
}

void readProfileField(YamlSchemaReader& reader, const MapEntry& f, const std::string& fp, RuntimeProfile& profile) {
  if (f.key == "image") {
    if (auto img = reader.string(f.value, fp, 512)) {
      if (!isPinnedImage(*img))
        reader.error(f.value, fp, "image '" + *img + "' is not pinned by digest",
                     "write name@sha256:<64 hex digits>; a tag can change under you");
      profile.image = *img;
    }
  } else if (f.key == "extraReadOnlyPaths") {
    if (auto list = reader.stringList(f.value, fp, 0, 64, {}, 4096)) {
      for (std::size_t i = 0; i < list->size(); ++i)
        if (!(*list)[i].starts_with("/")) reader.error(f.value[i], indexPath(fp, i), "is not an absolute path");
      profile.extraReadOnlyPaths = *list;
    }
  }
}

void readProfile(YamlSchemaReader& reader, const YAML::Node& key, const YAML::Node& value, HostConfig& config) {
  std::string name = key.IsScalar() ? key.Scalar() : "";
  std::string p = childPath("runtimeProfiles", name);
  if (!reader.name(key, p)) return;
  if (config.runtimeProfiles.contains(name)) {
    reader.error(key, p, "profile '" + name + "' is defined twice");
    return;
  }
  auto fields = reader.mapping(value, p, {"image", "extraReadOnlyPaths"}, {"image"});
  if (!fields) return;
  RuntimeProfile profile;
  profile.name = name;
  for (const MapEntry& f : *fields) readProfileField(reader, f, childPath(p, f.key), profile);
  config.runtimeProfiles.emplace(name, std::move(profile));
}

void readRuntimeProfiles(YamlSchemaReader& reader, const YAML::Node& node, HostConfig& config) {
  if (!node.IsMap()) {
    reader.error(node, "runtimeProfiles", "must be a mapping of profile names",
                 "write runtimeProfiles: {name: {image: repo@sha256:…}}");
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    YAML::Node key = it->first, value = it->second;  // copies: the iterator's pair is a temporary
    readProfile(reader, key, value, config);
  }
}

// The host and port of "host[:port]" (brackets kept on an IPv6 literal), or
// nullopt when it is not that form.
std::optional<std::pair<std::string, std::string>> hostAndPort(std::string_view authority) {
  std::size_t hostEnd = authority.starts_with("[") ? authority.find(']') + 1 : authority.find(':');
  if (hostEnd == 0) return std::nullopt;  // "[" without "]"
  hostEnd = std::min(hostEnd, authority.size());
  std::string_view host = authority.substr(0, hostEnd), rest = authority.substr(hostEnd);
  std::string_view port = rest.starts_with(":") ? rest.substr(1) : rest;
  bool portOk = rest.empty() || (!port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) {
                  return c >= '0' && c <= '9';
                }) && std::stoi(std::string(port)) <= 65535);
  bool hostOk = !host.empty() && std::none_of(host.begin(), host.end(), [](char c) {
    return c == '@' || c == '/' || c == '?' || c == '#' || c <= ' ' || c > '~';
  });
  if (!hostOk || !portOk) return std::nullopt;
  return std::pair{std::string(host), std::string(port)};
}

// The Kubernetes store's fields (docs/leases.md, "Kubernetes credentials").
void readKubernetesLeaseField(YamlSchemaReader& reader, const MapEntry& e, const std::string& p,
                              LeaseStoreConfig& leases) {
  auto s = reader.string(e.value, p, e.key == "kubeconfig" ? 4096 : 253);
  if (!s) return;
  if (e.key == "namespace") {
    if (std::string problem = kubeNamespaceProblem(*s); !problem.empty())
      reader.error(e.value, p, problem, "write a namespace name such as ci-runners");
    else
      leases.kubeNamespace = *s;
  } else if (e.key == "namePrefix") {
    if (std::string problem = kubeNamePrefixProblem(*s); !problem.empty())
      reader.error(e.value, p, problem, "write a prefix such as loopwright-");
    else
      leases.namePrefix = *s;
  } else if (e.key == "kubeconfig") {
    leases.kubeconfig = *s;
  } else if (e.key == "context") {
    leases.kubeContext = *s;
  }
}

void readLeaseField(YamlSchemaReader& reader, const MapEntry& e, const std::string& p, LeaseStoreConfig& leases) {
  if (e.key == "store") {
    if (auto s = reader.oneOf(e.value, p, {"local", "etcd", "kubernetes"}))
      leases.store = *s == "etcd"         ? LeaseStoreKind::Etcd
                     : *s == "kubernetes" ? LeaseStoreKind::Kubernetes
                                          : LeaseStoreKind::Local;
  } else if (e.key == "endpoint") {
    auto s = reader.string(e.value, p, 2048);
    if (!s) return;
    if (std::string problem = leaseEndpointProblem(*s); !problem.empty())
      reader.error(e.value, p, problem,
                   "write the etcd client URL, e.g. http://127.0.0.1:2379 or https://etcd.example:2379");
    else
      leases.endpoint = *s;
  } else if (e.key == "prefix") {
    auto s = reader.string(e.value, p, 256);
    if (!s) return;
    if (std::string problem = leasePrefixProblem(*s); !problem.empty())
      reader.error(e.value, p, problem, "write a key prefix such as /loopwright/leases/");
    else
      leases.prefix = *s;
  } else if (e.key == "maxClockSkewMs") {
    if (auto n = reader.integer(e.value, p, 0, 600000)) leases.maxClockSkewMs = *n;
  } else {
    readKubernetesLeaseField(reader, e, p, leases);
  }
}

void readLeases(YamlSchemaReader& reader, const YAML::Node& node, LeaseStoreConfig& leases) {
  auto entries = reader.mapping(
      node, "leases",
      {"store", "endpoint", "prefix", "maxClockSkewMs", "namespace", "kubeconfig", "context", "namePrefix"});
  if (!entries) return;
  for (const MapEntry& e : *entries) readLeaseField(reader, e, childPath("leases", e.key), leases);
}

void readAllowedNetworks(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                         EgressSettings& egress) {
  reader.sequence(node, path, 0, 64, [&](const YAML::Node& n, const std::string& ip) {
    auto text = reader.string(n, ip, 64);
    if (!text) return;
    if (auto network = parseNetwork(*text))
      egress.allowedNetworks.push_back(*network);
    else
      reader.error(n, ip, "'" + *text + "' is not a network", "write an address or a network: 10.1.2.0/24, fd12::/16");
  });
}

void readEgressSettings(YamlSchemaReader& reader, const YAML::Node& node, EgressSettings& egress) {
  auto entries = reader.mapping(node, "egress", {"allowedNetworks", "maxConnections", "maxBytes"});
  if (!entries) return;
  for (const MapEntry& e : *entries) {
    const std::string p = childPath("egress", e.key);
    if (e.key == "allowedNetworks") {
      readAllowedNetworks(reader, e.value, p, egress);
    } else if (e.key == "maxConnections") {
      if (auto n = reader.integer(e.value, p, 1, 100'000)) egress.maxConnections = *n;
    } else if (auto n = reader.integer(e.value, p, 1, std::int64_t{1} << 50)) {
      egress.maxBytes = *n;
    }
  }
}

void readKubernetesField(YamlSchemaReader& reader, const MapEntry& e, const std::string& p, K8sPodHostConfig& k) {
  auto s = reader.string(e.value, p, e.key == "kubeconfig" ? 4096 : 253);
  if (!s) return;
  if (e.key == "namespace" && !kubeNamespaceProblem(*s).empty())
    reader.error(e.value, p, kubeNamespaceProblem(*s), "write a namespace name such as ci-runners");
  else if (e.key == "runtimeClassName" && !kubeNamespaceProblem(*s).empty())
    reader.error(e.value, p, "'" + *s + "' is not a RuntimeClass name", "write the RuntimeClass's name, e.g. gvisor");
  else if (e.key == "image" && !isPinnedImage(*s))
    reader.error(e.value, p, "image '" + *s + "' is not pinned by digest", "write repo@sha256:<64 hex>");
  (e.key == "namespace"          ? k.ns
   : e.key == "runtimeClassName" ? k.runtimeClassName
   : e.key == "image"            ? k.image
   : e.key == "kubeconfig"       ? k.kubeconfig
                                 : k.context) = *s;
}

// The cluster of the k8s-pod backend (docs/kubernetes.md).
void readKubernetes(YamlSchemaReader& reader, const YAML::Node& node, HostConfig& config) {
  auto entries = reader.mapping(node, "kubernetes", {"namespace", "runtimeClassName", "image", "kubeconfig", "context"},
                                {"namespace", "runtimeClassName", "image"});
  if (!entries) return;
  K8sPodHostConfig k;
  for (const MapEntry& e : *entries) readKubernetesField(reader, e, childPath("kubernetes", e.key), k);
  config.kubernetes = k;
}

void readHostConfig(YamlSchemaReader& reader, const YAML::Node& root, HostConfig& config) {
  auto top = reader.mapping(
      root, "", {"apiVersion", "kind", "floor", "runtimeProfiles", "stateDir", "leases", "egress", "kubernetes"},
      {"apiVersion", "kind"});
  if (!top) return;
  for (const MapEntry& e : *top) {
    if (e.key == "apiVersion")
      reader.oneOf(e.value, "apiVersion", {"loopwright.dev/v1alpha1"});
    else if (e.key == "kind")
      reader.oneOf(e.value, "kind", {"HostConfig"});
    else if (e.key == "floor")
      readFloor(reader, e.value, config.floor);
    else if (e.key == "stateDir")
      readStateDir(reader, e.value, config);
    else if (e.key == "runtimeProfiles")
      readRuntimeProfiles(reader, e.value, config);
    else if (e.key == "leases")
      readLeases(reader, e.value, config.leases);
    else if (e.key == "egress")
      readEgressSettings(reader, e.value, config.egress);
    else if (e.key == "kubernetes")
      readKubernetes(reader, e.value, config);
  }
}

Error invalidHostConfig(const std::string& file, std::vector<Diagnostic> diagnostics) {
  Error error =
      makeError(ErrorCode::HostConfigInvalid,
                file + ": " + std::to_string(diagnostics.size()) + (diagnostics.size() == 1 ? " problem" : " problems"),
                "the host config is the runner admin's: fix it, or point "
                "LOOPWRIGHT_HOST_CONFIG at a valid one",
                file);
  error.diagnostics = std::move(diagnostics);
  return error;
}

}  // namespace

bool isPinnedImage(std::string_view image) {
  auto at = image.find("sha256:");
  if (at == std::string_view::npos) return false;
  if (at != 0 && (at < 2 || image[at - 1] != '@')) return false;
  std::string_view hex = image.substr(at + 7);
  return hex.size() == 64 &&
         std::all_of(hex.begin(), hex.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string leaseEndpointProblem(std::string_view endpoint) {
  std::size_t sep = endpoint.find("://");
  if (sep == std::string_view::npos) return "'" + std::string(endpoint) + "' is not a URL";
  std::string scheme(endpoint.substr(0, sep));
  std::string_view authority = endpoint.substr(sep + 3);
  if (authority.ends_with("/")) authority.remove_suffix(1);
  auto hp = hostAndPort(authority);
  if (!hp) return "'" + std::string(endpoint) + "' is not scheme://host[:port] (no path, user or query)";
  std::string host = hp->first;
  std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string refused = http::refusal(http::Origin{scheme, host, hp->second}, http::Policy{});
  return refused.empty() ? "" : "'" + std::string(endpoint) + "': " + refused;
}

std::string leasePrefixProblem(std::string_view prefix) {
  bool printable = std::all_of(prefix.begin(), prefix.end(), [](char c) { return c > ' ' && c <= '~'; });
  if (prefix.empty() || prefix.size() > 256 || !printable || !prefix.ends_with("/"))
    return "'" + std::string(prefix) + "' is not 1 to 256 printable ASCII characters ending in '/'";
  return "";
}

std::string kubeNamespaceProblem(std::string_view ns) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  bool chars = std::all_of(ns.begin(), ns.end(), [&](char c) { return alnum(c) || c == '-'; });
  if (ns.empty() || ns.size() > 63 || !chars || !alnum(ns.front()) || !alnum(ns.back()))
    return "'" + std::string(ns) +
           "' is not a namespace name (1 to 63 of a-z, 0-9 and '-', starting and ending "
           "with a letter or digit)";
  return "";
}

std::string kubeNamePrefixProblem(std::string_view prefix) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  bool chars = std::all_of(prefix.begin(), prefix.end(), [&](char c) { return alnum(c) || c == '-'; });
  if (prefix.empty() || prefix.size() > 63 || !chars || !alnum(prefix.front()))
    return "'" + std::string(prefix) + "' is not 1 to 63 of a-z, 0-9 and '-' starting with a letter or digit";
  return "";
}

std::string hostConfigPath(const Environment& env) {
  auto v = env.get("LOOPWRIGHT_HOST_CONFIG");
  return v && !v->empty() ? *v : std::string(kDefaultHostConfigPath);
}

Result<HostConfig> parseHostConfig(std::string_view text, const std::string& file) {
  std::vector<Diagnostic> diagnostics;
  HostConfig config;
  config.file = file;
  config.present = true;
  config.floor.allowDirectDedicated = false;  // unless the file says true (host_config.h)
  try {
    auto root = parseYamlDocument(text, file, kHostConfigMaxBytes, diagnostics);
    if (root) {
      YamlSchemaReader reader(file);
      readHostConfig(reader, *root, config);
      diagnostics = reader.takeDiagnostics();
    }
  } catch (const std::exception& e) {
    diagnostics.push_back({{file, 0, 0, ""}, std::string("cannot be read: ") + e.what(), ""});
  }
  if (diagnostics.empty()) return config;
  return invalidHostConfig(file, std::move(diagnostics));
}

Result<HostConfig> loadHostConfig(const std::string& path, bool mustExist) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT && !mustExist) {
    HostConfig none;
    none.file = path;
    return none;
  }
  auto text = readBoundedFile(path, kHostConfigMaxBytes, ErrorCode::HostConfigInvalid);
  if (!text) return text.error();
  return parseHostConfig(*text, path);
}

}  // namespace lw
