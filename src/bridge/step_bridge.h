// Everything one step's bridge needs, assembled: its tools (findings.report,
// github.event, model.complete on its route, and the pipeline's own), its
// guardrails (budget meter, loop detector), its session and its server.
// What the pipeline reads back afterwards: the findings reported, the call
// records, the stop if there was one.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "bridge/builtin_tools.h"
#include "bridge/lane_pool.h"
#include "bridge/server.h"
#include "bridge/session.h"
#include "guard/budget_meter.h"

namespace lw::bridge {

struct StepBridgeOptions {
  std::string stepId;                                // "stage/step"
  std::vector<std::string> grants;                   // grantsFor(step)
  LoopGuardrail loop;                                // the step's effective guardrails
  Limits limits;                                     // the step's effective limits (the wall time starts now)
  boost::json::value event;                          // github.event's answer
  StepRoute route;                                   // LanePool::routeFor(step); empty: no model.complete
  std::vector<Tool> extraTools;                      // GitHub reads and the like, granted or not by `grants`
  std::function<void(const guard::Event&)> onEvent;  // to the run record and stderr
  std::function<void(const guard::Event&)> onStop;   // kill the step here
};

class StepBridge {
 public:
  // `clock` and the route's lanes must outlive the bridge.
  StepBridge(StepBridgeOptions options, const guard::Clock& clock);
  ~StepBridge();

  // Serves the bridge's end of makeBridgeSocketPair() (the primary form).
  Status serve(UniqueFd fd);
  // Or listens on a path in a private directory (the secondary form).
  Status listen(const std::string& path);
  // Ends the server (see BridgeServer::stop). Idempotent.
  void stop();

  std::vector<Finding> findings() const { return findings_.snapshot(); }
  std::vector<CallRecord> records() const { return session_->records(); }
  std::size_t refusedAfterStop() const { return session_->refusedAfterStop(); }
  std::optional<guard::Event> stopped() const { return session_->stopped(); }
  guard::BudgetMeter& budget() { return budget_; }
  Session& session() { return *session_; }

 private:
  guard::BudgetMeter budget_;
  PendingFindings findings_;
  ToolRegistry registry_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<BridgeServer> server_;
};

}  // namespace lw::bridge
