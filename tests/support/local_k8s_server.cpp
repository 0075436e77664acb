#include "support/local_k8s_server.h"

#include <algorithm>
#include <chrono>
#include <regex>
#include <sstream>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "support/local_k8s_status.h"

namespace lw::test {
namespace {

namespace json = boost::json;
using Response = LocalHttpServer::Response;

// What the server serves: plural -> group and kind, as discovery names them.
struct ResourceType {
  std::string group;
  std::string version;
  std::string kind;
};
const std::map<std::string, ResourceType>& resourceTypes() {
  static const std::map<std::string, ResourceType> types = {
      {"leases", {"coordination.k8s.io", "v1", "Lease"}},
      {"pods", {"", "v1", "Pod"}},  // the core group: /api/v1
      {"networkpolicies", {"networking.k8s.io", "v1", "NetworkPolicy"}},
      {"runtimeclasses", {"node.k8s.io", "v1", "RuntimeClass"}},  // cluster-scoped
  };
  return types;
}

// A request's target split as the API server routes it.
struct Route {
  std::string plural;
  std::string ns;
  std::string name;  // "" for the collection
  ResourceType type;
  std::string collectionPath;
  std::string subresource;  // "exec", "attach", "portforward"; "" none
};

// A namespaced resource (/apis/G/V/namespaces/NS/PLURAL[/NAME]) or a
// cluster-scoped one (/apis/G/V/PLURAL[/NAME]: ns is empty).
std::optional<Route> routeOf(const std::string& path) {
  static const std::regex core(R"(/api/v1/namespaces/([^/]+)/(pods)(?:/([^/]+)(?:/(exec|attach|portforward))?)?)");
  std::smatch c;
  if (std::regex_match(path, c, core))
    return Route{c[2], c[1], c[3], resourceTypes().at(c[2]), "/api/v1/namespaces/" + std::string(c[1]) + "/pods", c[4]};
  static const std::regex re(R"(/apis/([a-z0-9.]+)/(v[0-9a-z]+)(?:/namespaces/([^/]+))?/([a-z]+)(?:/([^/]+))?)");
  std::smatch m;
  if (!std::regex_match(path, m, re)) return std::nullopt;
  auto type = resourceTypes().find(m[4]);
  if (type == resourceTypes().end() || type->second.group != m[1] || type->second.version != m[2]) return std::nullopt;
  const std::string scope = m[3].matched ? "/namespaces/" + std::string(m[3]) : "";
  return Route{m[4],
               m[3],
               m[5],
               type->second,
               "/apis/" + std::string(m[1]) + "/" + std::string(m[2]) + scope + "/" + std::string(m[4]),
               ""};
}

using k8s_answers::jsonResponse;
using k8s_answers::statusResponse;

std::string qualified(const Route& r) { return r.type.group.empty() ? r.plural : r.plural + "." + r.type.group; }

json::object detailsOf(const Route& r, const std::string& name) {
  return json::object{{"name", name}, {"group", r.type.group}, {"kind", r.plural}};
}

// apimachinery's IsDNS1123Subdomain: what metadata.name must be for most kinds.
bool isDns1123Subdomain(const std::string& name) {
  static const std::regex re(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");
  return name.size() <= 253 && std::regex_match(name, re);
}

// The field errors the registry's validation finds (field -> message), the
// subset of ValidateObjectMeta and ValidateLeaseSpec that applies here.
std::vector<std::pair<std::string, std::string>> fieldErrors(const json::object& object) {
  std::vector<std::pair<std::string, std::string>> errors;
  const json::object* meta = object.contains("metadata") ? object.at("metadata").if_object() : nullptr;
  const json::string* name = meta != nullptr && meta->contains("name") ? meta->at("name").if_string() : nullptr;
  if (name == nullptr || name->empty())
    errors.emplace_back("metadata.name", "Required value: name or generateName is required");
  else if (!isDns1123Subdomain(std::string(*name)))
    errors.emplace_back("metadata.name", "Invalid value: \"" + std::string(*name) +
                                             "\": a lowercase RFC 1123 subdomain must consist of lower case "
                                             "alphanumeric characters, '-' or '.', and must start and end with "
                                             "an alphanumeric character");
  const json::object* spec = object.contains("spec") ? object.at("spec").if_object() : nullptr;
  if (spec != nullptr && spec->contains("leaseDurationSeconds") &&
      spec->at("leaseDurationSeconds").to_number<std::int64_t>() <= 0)
    errors.emplace_back(
        "spec.leaseDurationSeconds",
        "Invalid value: " + json::serialize(spec->at("leaseDurationSeconds")) + ": must be greater than 0");
  if (spec != nullptr && spec->contains("leaseTransitions") &&
      spec->at("leaseTransitions").to_number<std::int64_t>() < 0)
    errors.emplace_back("spec.leaseTransitions", "Invalid value: " + json::serialize(spec->at("leaseTransitions")) +
                                                     ": must be greater than or equal to 0");
  return errors;
}

Response invalid(const Route& r, const std::string& name,
                 const std::vector<std::pair<std::string, std::string>>& errors) {
  json::array causes;
  std::string message = r.type.kind + "." + r.type.group + " \"" + name + "\" is invalid: ";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    causes.push_back(
        json::object{{"reason", "FieldValueInvalid"}, {"message", errors[i].second}, {"field", errors[i].first}});
    message += (i > 0 ? ", " : "") + errors[i].first + ": " + errors[i].second;
  }
  json::object details{{"name", name}, {"group", r.type.group}, {"kind", r.type.kind}, {"causes", causes}};
  return statusResponse(422, "Invalid", message, std::move(details));
}

std::string stringAt(const json::object& object, const char* section, const char* field) {
  const json::value* s = object.if_contains(section);
  if (s == nullptr || !s->is_object()) return "";
  const json::value* v = s->as_object().if_contains(field);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : "";
}

// Whether `object`'s labels satisfy `selector` ("k=v,k2=v2"; equality only).
bool matchesLabels(const json::object& object, const std::string& selector) {
  std::stringstream in(selector);
  for (std::string term; std::getline(in, term, ',');) {
    auto eq = term.find('=');
    if (eq == std::string::npos) return false;
    const json::value* labels = object.at("metadata").as_object().if_contains("labels");
    const json::value* v = labels != nullptr ? labels->as_object().if_contains(term.substr(0, eq)) : nullptr;
    if (v == nullptr || v->as_string() != term.substr(eq + 1)) return false;
  }
  return true;
}

bool isWatch(const std::string& target) {
  for (const auto& [k, v] : queryOf(target))
    if (k == "watch" && (v == "true" || v == "1")) return true;
  return false;
}

std::string verbOf(const std::string& method, const Route& r) {
  if (method == "GET") return r.name.empty() ? "list" : "get";
  if (method == "POST") return "create";
  if (method == "PUT") return "update";
  if (method == "DELETE") return "delete";
  return method;
}

}  // namespace

LocalK8sServer::LocalK8sServer(std::optional<LocalHttpServer::Tls> tls)
    : spec_({std::filesystem::path(LOOPWRIGHT_SOURCE_DIR) / "tests/data/k8s/api__v1_openapi.json",
             std::filesystem::path(LOOPWRIGHT_SOURCE_DIR) / "tests/data/k8s/apis__coordination.k8s.io__v1_openapi.json",
             std::filesystem::path(LOOPWRIGHT_SOURCE_DIR) / "tests/data/k8s/apis__networking.k8s.io__v1_openapi.json",
             std::filesystem::path(LOOPWRIGHT_SOURCE_DIR) / "tests/data/k8s/apis__node.k8s.io__v1_openapi.json"}) {
  auto handler = [this](const LocalHttpServer::Request& r) { return handle(r); };
  https_ = tls.has_value();
  networkPolicyEnforced_ = nodeSandboxInstalled();
  if (nodeSandboxInstalled()) sandboxedProcVersion_ = kLocalGVisorProcVersion;
  char dir[] = "/tmp/lw-k8s-pods-XXXXXX";
  podRoot_ = ::mkdtemp(dir) != nullptr ? dir : "/tmp";
  pods_ = std::make_unique<LocalPodRuntime>(
      podRoot_, [this](const std::string& path, json::object status) { podStatusChanged(path, std::move(status)); });
  http_ = tls ? std::make_unique<LocalHttpServer>("loopwright-local-k8s", handler, *tls)
              : std::make_unique<LocalHttpServer>("loopwright-local-k8s", handler);
}

LocalK8sServer::~LocalK8sServer() {
  http_.reset();
  pods_.reset();
  std::error_code ec;
  if (podRoot_ != "/tmp") std::filesystem::remove_all(podRoot_, ec);
}

std::string LocalK8sServer::url() const {
  return (https_ ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(http_->port());
}

std::vector<std::string> LocalK8sServer::violations() const {
  std::lock_guard<std::mutex> lock(mu_);
  return violations_;
}

std::vector<std::string> LocalK8sServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

std::vector<std::string> LocalK8sServer::createdPods() const {
  std::lock_guard<std::mutex> lock(mu_);
  return createdPods_;
}

std::optional<json::object> LocalK8sServer::object(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto found = objects_.find(path);
  if (found == objects_.end()) return std::nullopt;
  return found->second;
}

void LocalK8sServer::put(const std::string& path, json::object object) {
  std::lock_guard<std::mutex> lock(mu_);
  object["metadata"].as_object()["resourceVersion"] = std::to_string(++revision_);
  record(path, objects_.contains(path) ? "MODIFIED" : "ADDED", object);
  objects_[path] = std::move(object);
}

LocalHttpServer::Response LocalK8sServer::handle(const LocalHttpServer::Request& request) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.push_back(request.method + " " + request.target);
  }
  if (unavailable_)
    return statusResponse(503, "ServiceUnavailable", "the server is currently unable to handle the request");
  auto auth = request.headers.find("authorization");
  const std::string token = auth == request.headers.end() ? "" : auth->second;
  if (token != std::string("Bearer ") + kToken && token != std::string("Bearer ") + kForbiddenToken)
    return statusResponse(401, "Unauthorized", "Unauthorized");
  if (std::string why = spec_.checkRequest(request.method, request.target, request.body); !why.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    violations_.push_back(why);
    return statusResponse(400, "BadRequest", why);
  }
  auto route = routeOf(pathOf(request.target));
  if (route && token == std::string("Bearer ") + kForbiddenToken) {
    const std::string verb = verbOf(request.method, *route);
    return statusResponse(403, "Forbidden",
                          qualified(*route) + (route->name.empty() ? "" : " \"" + route->name + "\"") +
                              " is forbidden: User \"" + kUser + "\" cannot " + verb + " resource \"" + route->plural +
                              "\" in API group \"" + route->type.group + "\" " +
                              (route->ns.empty() ? "at the cluster scope" : "in the namespace \"" + route->ns + "\""),
                          detailsOf(*route, route->name));
  }
  Response answer =
      route ? serve(request) : statusResponse(404, "NotFound", "the server could not find the requested resource");
  // A watch answers a stream of events, not the list its schema names; an upgrade no JSON.
  if (std::string why = isWatch(request.target) || answer.upgrade
                            ? std::string()
                            : spec_.checkResponse(request.method, request.target, answer.status, answer.body);
      !why.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    violations_.push_back(why);
  }
  return answer;
}

LocalHttpServer::Response LocalK8sServer::serve(const LocalHttpServer::Request& request) {
  const Route r = *routeOf(pathOf(request.target));
  const std::string itemPath = r.collectionPath + "/" + r.name;
  if (!r.subresource.empty()) return serveExec(request, itemPath, r.name);
  std::unique_lock<std::mutex> lock(mu_);
  if (request.method == "GET" && r.name.empty() && isWatch(request.target))
    return watch(lock, r.collectionPath, request.target);
  if (request.method == "GET" && r.name.empty()) {
    std::string selector;
    for (const auto& [k, v] : queryOf(request.target))
      if (k == "labelSelector") selector = v;
    json::array items;
    for (const auto& [path, object] : objects_)
      if (path.starts_with(r.collectionPath + "/") && matchesLabels(object, selector)) items.push_back(object);
    return jsonResponse(200, json::object{{"kind", r.type.kind + "List"},
                                          {"apiVersion", r.type.group + "/" + r.type.version},
                                          {"metadata", json::object{{"resourceVersion", std::to_string(revision_)}}},
                                          {"items", items}});
  }
  auto found = objects_.find(itemPath);
  if (request.method == "GET" || request.method == "DELETE") {
    if (found == objects_.end())
      return statusResponse(404, "NotFound", qualified(r) + " \"" + r.name + "\" not found", detailsOf(r, r.name));
    if (request.method == "GET") return jsonResponse(200, found->second);
    json::object details = detailsOf(r, r.name);
    details["uid"] = found->second.at("metadata").at("uid");
    ++revision_;
    record(itemPath, "DELETED", found->second);
    json::object gone = std::move(found->second);
    objects_.erase(found);
    lock.unlock();
    if (r.plural == "pods") return podDeleted(itemPath, std::move(gone));
    return jsonResponse(200, json::object{{"kind", "Status"},
                                          {"apiVersion", "v1"},
                                          {"metadata", json::object{}},
                                          {"status", "Success"},
                                          {"details", details}});
  }
  json::object body = json::parse(request.body).as_object();
  if (!body.contains("metadata") || !body.at("metadata").is_object()) body["metadata"] = json::object{};
  json::object& meta = body["metadata"].as_object();
  const std::string name = request.method == "POST" ? stringAt(body, "metadata", "name") : r.name;
  if (request.method == "PUT" && stringAt(body, "metadata", "name") != r.name)
    return statusResponse(400, "BadRequest",
                          "the name of the object (" + stringAt(body, "metadata", "name") +
                              ") does not match the name on the URL (" + r.name + ")");
  if (meta.contains("namespace") && stringAt(body, "metadata", "namespace") != r.ns)
    return statusResponse(400, "BadRequest",
                          "the namespace of the provided object does not match the namespace sent on the request");
  const bool newPod = r.plural == "pods" && request.method == "POST";
  if (auto errors = newPod ? podFieldErrors(body, fieldErrors(body)) : fieldErrors(body); !errors.empty())
    return invalid(r, name, errors);
  if (std::string refusal = newPod ? podAdmissionRefusal(body) : ""; !refusal.empty())
    return statusResponse(403, "Forbidden", "pods \"" + name + "\" is forbidden: " + refusal, detailsOf(r, name));
  const std::string path = r.collectionPath + "/" + name;
  found = objects_.find(path);
  if (!r.ns.empty()) meta["namespace"] = r.ns;
  if (request.method == "POST") {
    if (!stringAt(body, "metadata", "resourceVersion").empty())
      return statusResponse(500, "InternalError",
                            "Internal error occurred: resourceVersion should not be set on objects to be created");
    if (found != objects_.end())
      return statusResponse(409, "AlreadyExists", qualified(r) + " \"" + name + "\" already exists",
                            detailsOf(r, name));
    meta["uid"] = "uid-" + std::to_string(revision_ + 1);
    meta["creationTimestamp"] = "2024-05-01T12:00:00Z";
    meta["resourceVersion"] = std::to_string(++revision_);
    if (r.plural == "pods") body["status"] = json::object{{"phase", "Pending"}};
    objects_[path] = body;
    record(path, "ADDED", body);
    if (r.plural == "pods") createdPods_.push_back(request.body);
    const PodSandbox sandbox = r.plural == "pods" ? podSandbox(body) : PodSandbox{};
    lock.unlock();
    if (r.plural == "pods") pods_->start(path, body, sandbox);
    return jsonResponse(201, body);
  }
  if (found == objects_.end())
    return statusResponse(404, "NotFound", qualified(r) + " \"" + name + "\" not found", detailsOf(r, name));
  const std::string sent = stringAt(body, "metadata", "resourceVersion");
  // Leases allow an unconditional update (no resourceVersion); a stale one is a lost race.
  if (!sent.empty() && sent != stringAt(found->second, "metadata", "resourceVersion"))
    return statusResponse(409, "Conflict",
                          "Operation cannot be fulfilled on " + qualified(r) + " \"" + name +
                              "\": the object has been modified; please apply your changes to the "
                              "latest version and try again",
                          detailsOf(r, name));
  meta["uid"] = found->second.at("metadata").at("uid");
  meta["creationTimestamp"] = found->second.at("metadata").at("creationTimestamp");
  meta["resourceVersion"] = std::to_string(++revision_);
  found->second = body;
  record(path, "MODIFIED", body);
  return jsonResponse(200, body);
}

void LocalK8sServer::record(const std::string& path, const char* type, const json::object& object) {
  events_.push_back(Event{path.substr(0, path.rfind('/')), type, object, revision_});
  changed_.notify_all();
}

void LocalK8sServer::compact() {
  std::lock_guard<std::mutex> lock(mu_);
  events_.clear();
  compactedRevision_ = revision_;
}

LocalHttpServer::Response LocalK8sServer::watch(std::unique_lock<std::mutex>& lock, const std::string& collection,
                                                const std::string& target) {
  std::int64_t from = revision_;
  auto wait = std::chrono::milliseconds(1000);
  for (const auto& [k, v] : queryOf(target)) {
    if (k == "resourceVersion" && !v.empty()) from = std::stoll(v);
    if (k == "timeoutSeconds") wait = std::min(wait, std::chrono::milliseconds(std::stoll(v) * 1000));
  }
  std::string lines;
  if (from < compactedRevision_) {
    // The watch cache answers 200 and reports the expiry as the stream's first event.
    json::object gone{{"kind", "Status"},
                      {"apiVersion", "v1"},
                      {"metadata", json::object{}},
                      {"status", "Failure"},
                      {"reason", "Expired"},
                      {"code", 410},
                      {"message", "too old resource version: " + std::to_string(from) + " (" +
                                      std::to_string(compactedRevision_) + ")"}};
    lines = json::serialize(json::object{{"type", "ERROR"}, {"object", gone}}) + "\n";
  } else {
    auto after = [&](const Event& e) { return e.collection == collection && e.revision > from; };
    changed_.wait_for(lock, wait, [&] { return std::any_of(events_.begin(), events_.end(), after); });
    for (const Event& e : events_)
      if (after(e)) lines += json::serialize(json::object{{"type", e.type}, {"object", e.object}}) + "\n";
  }
  return Response{200, {{"Content-Type", "application/json;stream=watch"}}, lines};
}

}  // namespace lw::test
