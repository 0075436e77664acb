// A local Kubernetes API server for the tests, like the local GitHub server:
// HTTP/1.1 on 127.0.0.1, plain or over TLS with a certificate the test
// makes (support/test_ca.h), bearer-token authentication, and the documented
// behaviour of what loopwright uses — RuntimeClasses (read), NetworkPolicies
// (list, create) and coordination.k8s.io/v1 Leases:
// create (201, 409 AlreadyExists), read (404 NotFound), replace with
// metadata.resourceVersion (409 Conflict on a stale one), delete, list by
// label; 401 without a known token, 403 Forbidden for a token without the
// verbs, 422 Invalid in the API's Status shape. Every request is checked
// against Kubernetes' OpenAPI description (tests/data/k8s, see its SOURCE):
// one the real server would reject is answered 400 and recorded in
// `violations()`, which a test asserts empty; every answer is checked too.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "support/local_http_server.h"
#include "support/local_k8s_pods.h"
#include "support/openapi_check.h"

namespace lw::test {

class LocalK8sServer {
 public:
  // Plain http, or https with `tls`'s certificate when given.
  explicit LocalK8sServer(std::optional<LocalHttpServer::Tls> tls = std::nullopt);
  ~LocalK8sServer();

  std::string url() const;                                             // "http://127.0.0.1:<port>"
  static constexpr const char* kToken = "lw-test-token";               // may do everything
  static constexpr const char* kForbiddenToken = "lw-readonly-token";  // authenticated, no verbs
  static constexpr const char* kUser = "system:serviceaccount:ci:loopwright";

  // Every request that failed the OpenAPI check, and every answer of the
  // server that did not match it ("" none), in order.
  std::vector<std::string> violations() const;
  // "METHOD /path?query" of every request, in order.
  std::vector<std::string> requests() const;
  // The body of every Pod the server created, as the client sent it.
  std::vector<std::string> createdPods() const;

  // The stored object at `path` ("/apis/coordination.k8s.io/v1/namespaces/ci/leases/x").
  std::optional<boost::json::object> object(const std::string& path) const;
  // Stores `object` at `path` as another client would (a new resourceVersion).
  void put(const std::string& path, boost::json::object object);
  // Forgets the history of changes, as etcd's compaction does: a watch from
  // a resourceVersion before now gets an ERROR event with 410 Expired.
  void compact();
  // Answers every request with 503 ServiceUnavailable while set.
  void setUnavailable(bool unavailable) { unavailable_ = unavailable; }
  // Whether the pods a NetworkPolicy denies egress get a network namespace of
  // their own, as a network plugin that enforces policies gives them (on by
  // default where bubblewrap is installed); off: the policy is stored, not
  // enforced, as on a cluster whose plugin ignores NetworkPolicy.
  void setNetworkPolicyEnforced(bool enforced) { networkPolicyEnforced_ = enforced; }
  // The /proc/version the pods of a runsc RuntimeClass see: gVisor's by
  // default where bubblewrap is installed; "" the host's, as on a node whose
  // runsc handler is not gVisor.
  void setSandboxedProcVersion(std::string text);
  // Processes the pods run now (containers and exec'd commands).
  std::size_t livePodProcesses() const { return pods_->liveProcesses(); }

 private:
  LocalHttpServer::Response handle(const LocalHttpServer::Request& request);
  LocalHttpServer::Response serve(const LocalHttpServer::Request& request);  // a routed, allowed request
  // A watch (?watch=true): the changes after ?resourceVersion, one JSON event
  // a line, waiting up to a second (at most ?timeoutSeconds) for the first.
  LocalHttpServer::Response watch(std::unique_lock<std::mutex>& lock, const std::string& collection,
                                  const std::string& target);
  void record(const std::string& path, const char* type, const boost::json::object& object);  // mu_ held
  // Pods (local_k8s_server_pods.cpp): the field errors of a Pod to create
  // besides `errors` (422), what admission refuses ("" none: 403), exec over
  // WebSocket, and a pod's new status from the runtime.
  std::vector<std::pair<std::string, std::string>> podFieldErrors(
      const boost::json::object& pod, std::vector<std::pair<std::string, std::string>> errors) const;
  std::string podAdmissionRefusal(const boost::json::object& pod) const;  // mu_ held
  PodSandbox podSandbox(const boost::json::object& pod) const;            // mu_ held
  LocalHttpServer::Response serveExec(const LocalHttpServer::Request& request, const std::string& podPath,
                                      const std::string& podName);
  void podStatusChanged(const std::string& path, boost::json::object status);
  LocalHttpServer::Response podDeleted(const std::string& path, boost::json::object pod);  // mu_ not held

  struct Event {
    std::string collection;
    std::string type;  // ADDED, MODIFIED, DELETED
    boost::json::object object;
    std::int64_t revision = 0;
  };

  OpenApiSpec spec_;
  mutable std::mutex mu_;
  std::map<std::string, boost::json::object> objects_;  // by item path
  std::int64_t revision_ = 100;
  std::vector<Event> events_;
  std::int64_t compactedRevision_ = 0;
  std::condition_variable changed_;
  std::vector<std::string> violations_;
  std::vector<std::string> requests_;
  std::vector<std::string> createdPods_;
  std::atomic<bool> unavailable_{false};
  std::atomic<bool> networkPolicyEnforced_;
  std::string sandboxedProcVersion_;  // mu_
  std::filesystem::path podRoot_;
  std::unique_ptr<LocalPodRuntime> pods_;  // after mu_: its threads report through it until it is gone
  std::unique_ptr<LocalHttpServer> http_;
  bool https_ = false;
};

}  // namespace lw::test
