// How the Kubernetes lease store reaches the API server and proves who it
// is (docs/leases.md, "Kubernetes credentials"): the in-cluster service
// account, or a minimal kubeconfig. Thin shells (environment, files) over
// functions that take the values, so tests feed them directly.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/http_policy.h"
#include "core/result.h"

namespace lw::lease::k8s {

struct Access {
  std::string server;     // "https://10.0.0.1:443", no path
  std::string caFile;     // PEM bundle to verify the server with ("": caPem or the system's)
  std::string caPem;      // PEM text (a kubeconfig's certificate-authority-data)
  std::string tokenFile;  // read again for every request: a rotated token is used at once
  std::string token;      // a kubeconfig's inline token (when there is no tokenFile)
  std::string ns;         // the namespace the kubeconfig or the service account names ("" none)
  std::string source;     // in words, for errors: "the in-cluster service account"
};

inline constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

// The in-cluster access: https://<host>:<port> (KUBERNETES_SERVICE_HOST and
// _PORT) with <dir>/token, <dir>/ca.crt and <dir>/namespace. Fails with
// LEASE_UNAVAILABLE when host or port is empty (not in a pod) or the token
// file is absent.
Result<Access> inClusterAccess(std::string_view host, std::string_view port, const std::filesystem::path& dir);
// The same from this process's environment and kServiceAccountDir.
Result<Access> inClusterAccessFromEnvironment();

// The access a kubeconfig's `context` (empty: its current-context) names.
// The subset read: clusters[].cluster.{server, certificate-authority,
// certificate-authority-data}, users[].user.{token, tokenFile},
// contexts[].context.{cluster, user, namespace}; relative file names are
// relative to the kubeconfig's directory. Refused (USAGE_ERROR naming the
// field) rather than half-applied: insecure-skip-tls-verify, client
// certificates, exec and auth-provider plugins, a server that is not https
// (plain http only to this machine).
Result<Access> kubeconfigAccess(const std::string& yamlText, const std::filesystem::path& file,
                                const std::string& context);
Result<Access> kubeconfigAccessFromFile(const std::filesystem::path& file, const std::string& context);

// The bearer token to send now: the token file's content, read again (without
// surrounding whitespace), or the inline token. LEASE_UNAVAILABLE when the
// file cannot be read or is empty.
Result<std::string> bearerToken(const Access& access);

// How every client of the API server (the lease store, the k8s-pod backend)
// talks to it: no redirects, never through a proxy, a 3 s connect timeout,
// the access's CA.
http::Policy apiHttpPolicy(const Access& access);

}  // namespace lw::lease::k8s
