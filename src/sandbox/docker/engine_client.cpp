#include "sandbox/docker/engine_client.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/hex.h"
#include "core/http.h"

namespace lw::sandbox::docker {
namespace {

namespace json = boost::json;

// The engine answers errors as {"message": "..."}; fall back to the raw body.
std::string engineMessage(const HttpResponse& r) {
  boost::system::error_code ec;
  const json::value v = json::parse(r.body, ec);
  if (!ec && v.is_object())
    if (const auto* m = v.as_object().if_contains("message"); m != nullptr && m->is_string())
      return std::string(m->as_string());
  std::string body = r.body.substr(0, 200);
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
  return body.empty() ? "HTTP " + std::to_string(r.status) : body;
}

Error engineError(const std::string& what, const HttpResponse& r, std::string hint = {}) {
  return makeError(ErrorCode::SandboxLaunchFailed,
                   "Docker engine: " + what + " failed (HTTP " + std::to_string(r.status) + "): " + engineMessage(r),
                   std::move(hint), "docker");
}

Result<json::object> parseObject(const std::string& what, const HttpResponse& r) {
  boost::system::error_code ec;
  json::value v = json::parse(r.body, ec);
  if (ec || !v.is_object())
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "Docker engine: " + what + " answered with something other than a JSON object",
                     "is DOCKER_HOST really a Docker engine?", "docker");
  return std::move(v.as_object());
}

std::string escapeQuery(const std::string& s) { return lw::http::percentEncode(s); }

bool isHexId(const std::string& id) { return !id.empty() && id.size() <= 64 && isLowerHex(id); }

Error badId(const std::string& id) {
  return makeError(ErrorCode::Internal, "not a container ID: '" + id + "'", {}, "docker");
}

}  // namespace

EngineClient::EngineClient(std::shared_ptr<HttpTransport> http, std::chrono::milliseconds callTimeout)
    : http_(std::move(http)), callTimeout_(callTimeout) {}

Result<HttpResponse> EngineClient::call(const std::string& method, const std::string& target, std::string body) {
  auto r = exchange(*http_, engineRequest(method, std::string(kApiPrefix) + target, std::move(body), callTimeout_));
  if (!r) return r.error();
  if (timedOut(*r))
    return makeError(
        ErrorCode::SandboxLaunchFailed,
        "Docker engine: " + method + " " + target + " took longer than " + std::to_string(callTimeout_.count()) + " ms",
        "the engine is overloaded or stuck; see its log", "docker");
  return r;
}

Status EngineClient::ping() {
  auto r = call("GET", "/_ping");
  if (!r) return r.error();
  if (r->status != 200) return engineError("GET /_ping", *r);
  return Ok{};
}

Result<json::object> EngineClient::version() {
  auto r = call("GET", "/version");
  if (!r) return r.error();
  if (r->status != 200) return engineError("GET /version", *r);
  return parseObject("GET /version", *r);
}

Result<json::object> EngineClient::info() {
  auto r = call("GET", "/info");
  if (!r) return r.error();
  if (r->status != 200) return engineError("GET /info", *r);
  return parseObject("GET /info", *r);
}

Result<bool> EngineClient::hasNetwork(const std::string& name) {
  auto r = call("GET", "/networks/" + escapeQuery(name));
  if (!r) return r.error();
  if (r->status == 404) return false;
  if (r->status != 200) return engineError("GET /networks/" + name, *r);
  return true;
}

Result<std::string> EngineClient::create(const json::object& body, const std::string& name) {
  auto r =
      call("POST", "/containers/create" + (name.empty() ? "" : "?name=" + escapeQuery(name)), json::serialize(body));
  if (!r) return r.error();
  if (r->status == 404)
    return engineError("POST /containers/create", *r,
                       "loopwright never pulls: load the pinned image into this engine first "
                       "(docker pull NAME@sha256:…, or docker load / docker import)");
  if (r->status != 201) return engineError("POST /containers/create", *r);
  auto obj = parseObject("POST /containers/create", *r);
  if (!obj) return obj.error();
  const auto* id = obj->if_contains("Id");
  if (id == nullptr || !id->is_string() || !isHexId(std::string(id->as_string())))
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "Docker engine: POST /containers/create answered without a container ID", {}, "docker");
  return std::string(id->as_string());
}

Status EngineClient::start(const std::string& id) {
  if (!isHexId(id)) return badId(id);
  auto r = call("POST", "/containers/" + id + "/start");
  if (!r) return r.error();
  if (r->status != 204 && r->status != 304) return engineError("POST /containers/{id}/start", *r);
  return Ok{};
}

Result<int> EngineClient::hostPid(const std::string& id) {
  if (!isHexId(id)) return badId(id);
  auto r = call("GET", "/containers/" + id + "/json");
  if (!r) return r.error();
  if (r->status != 200) return engineError("GET /containers/{id}/json", *r);
  auto obj = parseObject("GET /containers/{id}/json", *r);
  if (!obj) return obj.error();
  const auto* state = obj->if_contains("State");
  if (state != nullptr && state->is_object())
    if (const auto* pid = state->as_object().if_contains("Pid"); pid != nullptr && pid->is_int64())
      return static_cast<int>(pid->as_int64());
  return -1;
}

Result<WaitOutcome> EngineClient::wait(const std::string& id, std::chrono::milliseconds limit) {
  if (!isHexId(id)) return badId(id);
  auto r = exchange(
      *http_,
      engineRequest("POST", std::string(kApiPrefix) + "/containers/" + id + "/wait?condition=not-running", {}, limit));
  if (!r) return r.error();
  if (timedOut(*r)) return WaitOutcome{true, -1};
  if (r->status != 200) return engineError("POST /containers/{id}/wait", *r);
  auto obj = parseObject("POST /containers/{id}/wait", *r);
  if (!obj) return obj.error();
  const auto* code = obj->if_contains("StatusCode");
  if (code == nullptr || !code->is_number())
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "Docker engine: POST /containers/{id}/wait answered without StatusCode", {}, "docker");
  return WaitOutcome{false, static_cast<long>(code->to_number<std::int64_t>())};
}

Status EngineClient::kill(const std::string& id) {
  if (!isHexId(id)) return badId(id);
  auto r = call("POST", "/containers/" + id + "/kill?signal=SIGKILL");
  if (!r) return r.error();
  // 409: not running any more; 404: already removed. Both mean "dead".
  if (r->status != 204 && r->status != 409 && r->status != 404) return engineError("POST /containers/{id}/kill", *r);
  return Ok{};
}

Status EngineClient::logs(const std::string& id, LogDemuxer& demux) {
  if (!isHexId(id)) return badId(id);
  std::string errorBody;
  auto r =
      exchange(*http_, engineRequest("GET", std::string(kApiPrefix) + "/containers/" + id + "/logs?stdout=1&stderr=1",
                                     {}, callTimeout_, [&](std::string_view piece) {
                                       // Only a 200 carries the multiplexed stream; an error body is kept
                                       // (short) to be shown instead.
                                       if (errorBody.size() < 4096) errorBody.append(piece.substr(0, 4096));
                                       demux.feed(piece);
                                     }));
  if (!r) return r.error();
  if (timedOut(*r))
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "Docker engine: reading the logs took longer than " + std::to_string(callTimeout_.count()) + " ms",
                     {}, "docker");
  if (r->status != 200) {
    HttpResponse shown = *r;
    shown.body = errorBody;
    return engineError("GET /containers/{id}/logs", shown, "the engine must keep logs (json-file or local driver)");
  }
  return Ok{};
}

Status EngineClient::remove(const std::string& id) {
  if (!isHexId(id)) return badId(id);
  auto r = call("DELETE", "/containers/" + id + "?force=1&v=1");
  if (!r) return r.error();
  // 409 "removal already in progress" is fine too: the container is going.
  if (r->status != 204 && r->status != 404 && r->status != 409) return engineError("DELETE /containers/{id}", *r);
  return Ok{};
}

Result<std::vector<std::string>> EngineClient::listLabelled(const std::string& key, const std::string& value) {
  const json::object filters{{"label", json::array{json::string(key + "=" + value)}}};
  auto r = call("GET", "/containers/json?all=1&filters=" + escapeQuery(json::serialize(filters)));
  if (!r) return r.error();
  if (r->status != 200) return engineError("GET /containers/json", *r);
  boost::system::error_code ec;
  const json::value v = json::parse(r->body, ec);
  if (ec || !v.is_array())
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "Docker engine: GET /containers/json answered with something other than a list", {}, "docker");
  std::vector<std::string> ids;
  for (const auto& c : v.as_array())
    if (c.is_object())
      if (const auto* id = c.as_object().if_contains("Id"); id != nullptr && id->is_string())
        ids.emplace_back(id->as_string());
  return ids;
}

Result<int> removeLabelledContainers(EngineClient& client, const std::string& key, const std::string& value) {
  auto ids = client.listLabelled(key, value);
  if (!ids) return ids.error();
  int removed = 0;
  for (const auto& id : *ids) {
    auto st = client.remove(id);
    if (!st) return st.error();
    ++removed;
  }
  return removed;
}

}  // namespace lw::sandbox::docker
