#include "pipeline/step/egress_denial_notes.h"

namespace lw::pipeline {

namespace {

std::string noteFor(const boost::json::object& record) {
  const std::string host(record.at("host").as_string());
  const std::string port = std::to_string(record.at("port").to_number<std::int64_t>());
  const std::string reason(record.at("reason").as_string());
  std::string note = "The egress proxy denied a connection to `" + host + ":" + port + "`: " + reason + ".";
  // The list lacks the entry: say which one would allow it.
  if (reason.find("is not in the step's egress list") != std::string::npos)
    note += " To allow it, add `" + host + ":" + port + "` to the step's `sandbox.egress` (docs/egress.md).";
  return note;
}

}  // namespace

std::vector<Finding> egressDenialNotes(const boost::json::value& egress, const std::string& step) {
  std::vector<Finding> notes;
  if (!egress.is_array()) return notes;
  for (const auto& c : egress.as_array()) {
    const auto* record = c.if_object();
    if (record == nullptr || !record->contains("allowed") || record->at("allowed").as_bool()) continue;
    Finding f;
    f.step = step;
    f.ruleId = std::string(kEgressDeniedRule);
    f.severity = Severity::Notice;
    f.message = noteFor(*record);
    notes.push_back(std::move(f));
  }
  return notes;
}

}  // namespace lw::pipeline
