#include "sandbox/k8s/k8s_pods_api.h"

#include <sstream>
#include <thread>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace lw::sandbox::k8s {
namespace {

namespace json = boost::json;

std::string podsPath(const std::string& ns) { return "/api/v1/namespaces/" + http::percentEncode(ns) + "/pods"; }

Error launchFailed(const std::string& name, const std::string& message) {
  return makeError(ErrorCode::SandboxLaunchFailed, message,
                   "see the pod's events (kubectl describe pod " + name + ") and docs/kubernetes.md", name);
}

std::string stringAt(const json::object& o, std::initializer_list<const char*> keys) {
  const json::value* v = nullptr;
  const json::object* at = &o;
  for (const char* k : keys) {
    v = at != nullptr ? at->if_contains(k) : nullptr;
    at = v != nullptr ? v->if_object() : nullptr;
  }
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : "";
}

// "Pending (files: waiting ContainerCreating, step: running)", for messages.
std::string stateOf(const json::object& pod) {
  std::string text = stringAt(pod, {"status", "phase"});
  const json::value* statuses =
      pod.contains("status") ? pod.at("status").as_object().if_contains("containerStatuses") : nullptr;
  if (statuses == nullptr || !statuses->is_array()) return text;
  std::string list;
  for (const json::value& c : statuses->as_array()) {
    const json::object* state = c.as_object().contains("state") ? c.at("state").if_object() : nullptr;
    std::string what = state != nullptr && !state->empty() ? std::string(state->begin()->key()) : "unknown";
    if (state != nullptr && !state->empty() && state->begin()->value().is_object())
      if (std::string reason = stringAt(state->begin()->value().as_object(), {"reason"}); !reason.empty())
        what += " " + reason;
    list += (list.empty() ? "" : ", ") + stringAt(c.as_object(), {"name"}) + ": " + what;
  }
  return text + " (" + list + ")";
}

bool ended(const json::object& pod) {
  const std::string phase = stringAt(pod, {"status", "phase"});
  return phase == "Succeeded" || phase == "Failed";
}

// What one watch request says of the pod: its last state, or that the
// resourceVersion expired (410) and the watch must start from a fresh read.
struct WatchNews {
  std::optional<json::object> pod;
  bool expired = false;
  bool deleted = false;
  std::string resourceVersion;
};

WatchNews readEvents(const std::string& lines, const std::string& name) {
  WatchNews news;
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);) {
    boost::system::error_code ec;
    json::value event = json::parse(line, ec);
    if (ec || !event.is_object() || !event.as_object().contains("object")) continue;
    const std::string type = stringAt(event.as_object(), {"type"});
    const json::object& object = event.at("object").as_object();
    if (type == "ERROR") {
      news.expired = news.expired || (object.contains("code") && object.at("code") == 410);
      continue;
    }
    if (stringAt(object, {"metadata", "name"}) != name) continue;
    news.resourceVersion = stringAt(object, {"metadata", "resourceVersion"});
    news.deleted = type == "DELETED";
    news.pod = object;
  }
  return news;
}

}  // namespace

bool allContainersRunning(const json::object& pod) {
  if (stringAt(pod, {"status", "phase"}) != "Running") return false;
  const json::value* statuses = pod.at("status").as_object().if_contains("containerStatuses");
  if (statuses == nullptr || !statuses->is_array() || statuses->as_array().empty()) return false;
  for (const json::value& c : statuses->as_array()) {
    const json::value* state = c.as_object().if_contains("state");
    if (state == nullptr || !state->is_object() || !state->as_object().contains("running")) return false;
  }
  return true;
}

Result<json::object> createPod(http::Transport& transport, const ClusterEndpoint& endpoint, const json::object& pod) {
  const std::string ns = stringAt(pod, {"metadata", "namespace"});
  const std::string name = stringAt(pod, {"metadata", "name"});
  auto answer = callApi(transport, endpoint, "POST", podsPath(ns) + "?fieldValidation=Strict", json::serialize(pod));
  if (!answer) return answer.error();
  if (answer->status == 201 || answer->status == 200) return std::move(answer->body);
  if (answer->status == 403)
    return makeError(ErrorCode::SandboxCapabilityInsufficient,
                     "the cluster refused the step's pod " + ns + "/" + name + messageSuffix(*answer),
                     "the namespace must admit restricted pods of the RuntimeClass the host config names, and the "
                     "runner may create pods (docs/kubernetes.md); the step is never run with less",
                     name);
  return launchFailed(name, "the API server refused the step's pod " + ns + "/" + name + " with HTTP " +
                                std::to_string(answer->status) + messageSuffix(*answer));
}

Result<json::object> waitRunning(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& ns,
                                 const std::string& name, std::chrono::steady_clock::time_point deadline) {
  std::optional<json::object> last;
  std::string from;  // the resourceVersion to watch from; "" after a 410: read afresh
  while (std::chrono::steady_clock::now() < deadline) {
    if (from.empty()) {
      auto read = callApi(transport, endpoint, "GET", podsPath(ns) + "/" + http::percentEncode(name));
      if (!read) return read.error();
      if (read->status != 200) return launchFailed(name, "the step's pod " + name + " is gone" + messageSuffix(*read));
      last = std::move(read->body);
      from = stringAt(*last, {"metadata", "resourceVersion"});
    }
    if (allContainersRunning(*last)) return *last;
    if (ended(*last)) return launchFailed(name, "the step's pod " + name + " ended before it ran: " + stateOf(*last));
    // Within the transport's timeout: the server holds a watch open until timeoutSeconds.
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(deadline - std::chrono::steady_clock::now());
    const auto window = std::chrono::duration_cast<std::chrono::seconds>(endpoint.timeout).count() - 1;
    auto watch = callApiRaw(transport, endpoint, "GET",
                            podsPath(ns) + "?watch=true&fieldSelector=" + http::percentEncode("metadata.name=" + name) +
                                "&resourceVersion=" + from + "&timeoutSeconds=" +
                                std::to_string(std::max<long>(1, std::min<long>(left.count(), window))));
    if (!watch) return watch.error();
    WatchNews news = readEvents(watch->body, name);
    if (news.expired) from.clear();  // 410 Gone: the resourceVersion is compacted away
    if (news.deleted) return launchFailed(name, "the step's pod " + name + " was deleted before it ran");
    if (news.pod && !news.expired) {
      last = std::move(news.pod);
      from = news.resourceVersion;
    }
  }
  return launchFailed(name,
                      "the step's pod " + name + " did not run in time: " + (last ? stateOf(*last) : "never read"));
}

Status deletePod(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& ns,
                 const std::string& name) {
  auto answer =
      callApi(transport, endpoint, "DELETE", podsPath(ns) + "/" + http::percentEncode(name) + "?gracePeriodSeconds=0");
  if (!answer) return answer.error();
  if (answer->status == 200 || answer->status == 202 || answer->status == 404) return Ok{};
  return launchFailed(name, "the API server did not delete the step's pod " + ns + "/" + name + ": HTTP " +
                                std::to_string(answer->status) + messageSuffix(*answer));
}

Result<std::vector<std::string>> listPods(http::Transport& transport, const ClusterEndpoint& endpoint,
                                          const std::string& ns, const std::string& labelSelector) {
  auto answer =
      callApi(transport, endpoint, "GET", podsPath(ns) + "?labelSelector=" + http::percentEncode(labelSelector));
  if (!answer) return answer.error();
  const json::value* items = answer->body.if_contains("items");
  if (answer->status != 200 || items == nullptr || !items->is_array())
    return makeError(ErrorCode::SandboxBackendUnavailable,
                     "the API server did not list the pods in " + ns + messageSuffix(*answer),
                     "the runner may list pods in its namespace (docs/kubernetes.md)", ns);
  std::vector<std::string> names;
  for (const json::value& pod : items->as_array()) names.push_back(stringAt(pod.as_object(), {"metadata", "name"}));
  return names;
}

}  // namespace lw::sandbox::k8s
