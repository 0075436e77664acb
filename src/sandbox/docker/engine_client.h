// The Docker Engine API calls the backend makes, each naming its endpoint.
// Versioned at 1.41 (Engine 20.10, Debian 12's docker.io): every newer
// engine still serves it, and every field used here exists in it.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "sandbox/docker/http_transport.h"
#include "sandbox/docker/log_demux.h"

namespace lw::sandbox::docker {

inline constexpr std::string_view kApiPrefix = "/v1.41";

struct WaitOutcome {
  bool timedOut = false;  // the container was still running at the limit
  long statusCode = -1;   // the main process's exit status (128+n after signal n)
};

class EngineClient {
 public:
  // `callTimeout` bounds every call but wait() (which takes its own limit).
  EngineClient(std::shared_ptr<HttpTransport> http, std::chrono::milliseconds callTimeout);

  // GET /_ping. Fails with IO_ERROR when unreachable, else SANDBOX_LAUNCH_FAILED.
  Status ping();
  // GET /version and GET /info, parsed.
  Result<boost::json::object> version();
  Result<boost::json::object> info();
  // GET /networks/{name}: whether the engine has that network.
  Result<bool> hasNetwork(const std::string& name);
  // POST /containers/create?name=NAME -> the new container's ID. A missing
  // image is reported with a hint that loopwright never pulls.
  Result<std::string> create(const boost::json::object& body, const std::string& name = {});
  // POST /containers/{id}/start.
  Status start(const std::string& id);
  // GET /containers/{id}/json -> State.Pid (the host pid of its init).
  Result<int> hostPid(const std::string& id);
  // POST /containers/{id}/wait?condition=not-running, bounded by `limit`
  // (zero: no limit).
  Result<WaitOutcome> wait(const std::string& id, std::chrono::milliseconds limit);
  // POST /containers/{id}/kill: SIGKILL. A container already stopped or gone is fine.
  Status kill(const std::string& id);
  // GET /containers/{id}/logs?stdout=1&stderr=1 into `demux` (bounded).
  Status logs(const std::string& id, LogDemuxer& demux);
  // DELETE /containers/{id}?force=1&v=1. A container already gone is fine.
  Status remove(const std::string& id);
  // GET /containers/json?all=1&filters={"label":["key=value"]} -> IDs.
  Result<std::vector<std::string>> listLabelled(const std::string& key, const std::string& value);

 private:
  Result<HttpResponse> call(const std::string& method, const std::string& target, std::string body = {});
  std::shared_ptr<HttpTransport> http_;
  std::chrono::milliseconds callTimeout_;
};

// Force-removes every container carrying label `key=value` (a run's
// leftovers after an interrupted orchestrator). Returns how many were removed.
Result<int> removeLabelledContainers(EngineClient& client, const std::string& key, const std::string& value);

}  // namespace lw::sandbox::docker
