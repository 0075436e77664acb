// The tools every step has: findings.report (its structured output, checked
// against schemas/findings.schema.json) and github.event (the event that
// started the run).
#pragma once

#include <mutex>
#include <vector>

#include <boost/json/value.hpp>

#include "bridge/tool_registry.h"
#include "core/finding.h"

namespace lw::bridge {

// Findings a step reported through the bridge, kept until verification
// accepts or quarantines the step. Thread-safe.
class PendingFindings {
 public:
  void add(std::vector<Finding> findings);
  std::vector<Finding> snapshot() const;
  std::size_t size() const;

 private:
  mutable std::mutex mu_;
  std::vector<Finding> findings_;
};

// findings.report {findings: [...]}: each call adds to `sink` (which must
// outlive the tool); a call that does not match the schema adds nothing and
// is answered with the first error's path. Its size counts as output bytes.
Tool findingsReportTool(PendingFindings& sink);

// github.event {}: the event payload, as given.
Tool githubEventTool(boost::json::value event);

}  // namespace lw::bridge
