#include "lease/k8s_access.h"

#include <cstdlib>

#include <yaml-cpp/yaml.h>

#include "core/base64.h"
#include "core/file_io.h"
#include "core/http_policy.h"

namespace lw::lease::k8s {
namespace {

constexpr std::size_t kMaxTokenBytes = 64 * 1024;
constexpr std::size_t kMaxKubeconfigBytes = 1 << 20;

Error unavailable(std::string message, std::string hint, std::string subject) {
  return makeError(ErrorCode::LeaseUnavailable, std::move(message), std::move(hint), std::move(subject));
}

Error unsupported(const std::filesystem::path& file, const std::string& field, const std::string& why) {
  return makeError(ErrorCode::UsageError, file.string() + ": " + field + " " + why,
                   "give the lease store a kubeconfig with a bearer token (token or tokenFile) and the "
                   "cluster's CA (docs/leases.md, \"Kubernetes credentials\")",
                   file.string());
}

std::string trimmed(std::string s) {
  const char* space = " \t\r\n";
  s.erase(0, s.find_first_not_of(space));
  s.erase(s.find_last_not_of(space) + 1);
  return s;
}

std::string hostForUrl(std::string_view host) {
  return host.find(':') != std::string_view::npos ? "[" + std::string(host) + "]" : std::string(host);
}

// The entry of `list` (clusters, users, contexts) called `name`, or a null node.
YAML::Node named(const YAML::Node& list, const std::string& name) {
  if (list && list.IsSequence())
    for (const YAML::Node& entry : list)
      if (entry["name"] && entry["name"].as<std::string>() == name) return entry;
  return YAML::Node(YAML::NodeType::Null);
}

std::string relativeTo(const std::filesystem::path& file, const std::string& name) {
  std::filesystem::path p(name);
  return p.is_absolute() ? name : (file.parent_path() / p).string();
}

// The server URL's host: what follows "https://" or "http://" up to the port or path.
std::string hostOf(const std::string& server) {
  std::string rest = server.substr(server.find("://") + 3);
  if (rest.starts_with("[")) return rest.substr(0, rest.find(']') + 1);
  return rest.substr(0, rest.find_first_of(":/"));
}

Result<Access> clusterAccess(const YAML::Node& cluster, const std::filesystem::path& file, Access access) {
  if (cluster["insecure-skip-tls-verify"] && cluster["insecure-skip-tls-verify"].as<bool>())
    return unsupported(file, "insecure-skip-tls-verify", "is refused: the lease store always verifies the server");
  access.server = cluster["server"] ? cluster["server"].as<std::string>() : "";
  while (access.server.ends_with("/")) access.server.pop_back();
  const bool https = access.server.starts_with("https://");
  if (!https && !(access.server.starts_with("http://") && http::isLoopbackHost(hostOf(access.server))))
    return unsupported(file, "cluster.server", "must be an https URL (plain http only to this machine)");
  if (cluster["certificate-authority"])
    access.caFile = relativeTo(file, cluster["certificate-authority"].as<std::string>());
  if (cluster["certificate-authority-data"]) {
    auto pem = base64Decode(cluster["certificate-authority-data"].as<std::string>());
    if (!pem) return unsupported(file, "certificate-authority-data", "is not base64");
    access.caPem = *pem;
  }
  return access;
}

Result<Access> userAccess(const YAML::Node& user, const std::filesystem::path& file, Access access) {
  for (const char* field : {"client-certificate", "client-certificate-data", "client-key", "client-key-data", "exec",
                            "auth-provider", "username", "password"})
    if (user[field]) return unsupported(file, std::string("user.") + field, "is not supported");
  if (user["tokenFile"])
    access.tokenFile = relativeTo(file, user["tokenFile"].as<std::string>());
  else if (user["token"])
    access.token = user["token"].as<std::string>();
  else
    return unsupported(file, "user", "has no token or tokenFile");
  return access;
}

}  // namespace

Result<Access> inClusterAccess(std::string_view host, std::string_view port, const std::filesystem::path& dir) {
  if (host.empty() || port.empty())
    return unavailable("KUBERNETES_SERVICE_HOST or KUBERNETES_SERVICE_PORT is not set: this is not a pod",
                       "run in a pod with a service account, or name a kubeconfig in the host config "
                       "(leases.kubeconfig)",
                       "in-cluster");
  Access access;
  access.server = "https://" + hostForUrl(host) + ":" + std::string(port);
  access.tokenFile = (dir / "token").string();
  access.caFile = (dir / "ca.crt").string();
  access.source = "the in-cluster service account (" + dir.string() + ")";
  if (auto ns = readBoundedFile((dir / "namespace").string(), 256, ErrorCode::IoError)) access.ns = trimmed(*ns);
  if (!std::filesystem::exists(access.tokenFile))
    return unavailable("the service account token " + access.tokenFile + " does not exist",
                       "mount the service account token (automountServiceAccountToken) in the runner's pod",
                       access.tokenFile);
  return access;
}

Result<Access> inClusterAccessFromEnvironment() {
  const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
  const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
  return inClusterAccess(host != nullptr ? host : "", port != nullptr ? port : "", kServiceAccountDir);
}

Result<Access> kubeconfigAccess(const std::string& yamlText, const std::filesystem::path& file,
                                const std::string& context) {
  YAML::Node root;
  try {
    root = YAML::Load(yamlText);
  } catch (const YAML::Exception& e) {
    return unsupported(file, "the file", std::string("is not YAML: ") + e.what());
  }
  try {
    std::string name = context.empty() && root["current-context"] ? root["current-context"].as<std::string>() : context;
    YAML::Node ctx = named(root["contexts"], name)["context"];
    if (!ctx) return unsupported(file, "contexts", "has no context \"" + name + "\"");
    Access access;
    access.source = "the kubeconfig " + file.string() + " (context " + name + ")";
    access.ns = ctx["namespace"] ? ctx["namespace"].as<std::string>() : "";
    YAML::Node cluster = named(root["clusters"], ctx["cluster"] ? ctx["cluster"].as<std::string>() : "")["cluster"];
    YAML::Node user = named(root["users"], ctx["user"] ? ctx["user"].as<std::string>() : "")["user"];
    if (!cluster) return unsupported(file, "context.cluster", "names no cluster in clusters");
    if (!user) return unsupported(file, "context.user", "names no user in users");
    auto withCluster = clusterAccess(cluster, file, std::move(access));
    if (!withCluster) return withCluster;
    return userAccess(user, file, std::move(*withCluster));
  } catch (const YAML::Exception& e) {
    return unsupported(file, "a field", std::string("has the wrong type: ") + e.what());
  }
}

Result<Access> kubeconfigAccessFromFile(const std::filesystem::path& file, const std::string& context) {
  auto text = readBoundedFile(file.string(), kMaxKubeconfigBytes, ErrorCode::UsageError);
  if (!text) return text.error();
  return kubeconfigAccess(*text, file, context);
}

Result<std::string> bearerToken(const Access& access) {
  if (access.tokenFile.empty()) return access.token;
  auto text = readBoundedFile(access.tokenFile, kMaxTokenBytes, ErrorCode::LeaseUnavailable);
  if (!text) return text.error();
  std::string token = trimmed(*text);
  if (token.empty())
    return unavailable("the token file " + access.tokenFile + " is empty", "check the service account token mount",
                       access.tokenFile);
  return token;
}

http::Policy apiHttpPolicy(const Access& access) {
  http::Policy policy;
  policy.maxRedirects = 0;
  policy.proxy = http::Proxy::kNever;
  policy.connectTimeout = std::chrono::milliseconds(3000);
  policy.caFile = access.caFile;
  policy.caPem = access.caPem;
  return policy;
}

}  // namespace lw::lease::k8s
