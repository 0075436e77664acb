#include "bridge/builtin_tools.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "policy/model/tool_names.h"
#include "verify/outputs/outputs.h"

namespace lw::bridge {

namespace json = boost::json;

void PendingFindings::add(std::vector<Finding> findings) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& f : findings) findings_.push_back(std::move(f));
}

std::vector<Finding> PendingFindings::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return findings_;
}

std::size_t PendingFindings::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return findings_.size();
}

Tool findingsReportTool(PendingFindings& sink) {
  Tool t;
  t.name = tools::kFindingsReport;
  t.description =
      "Report review findings (same format as findings.json in LOOPWRIGHT_OUT). Each call adds "
      "to the step's findings; they are published only after the step passes verification.";
  // The published schema itself, so that the bridge and findings.json can
  // never disagree; only its identifying keywords are left out.
  json::object schema = json::parse(verify::findingsSchemaText()).as_object();
  schema.erase("$schema");
  schema.erase("$id");
  schema.erase("title");
  t.inputSchema = std::move(schema);
  t.chargesOutput = true;
  t.handler = [&sink](const json::object& args, ToolContext& ctx) -> Result<ToolOutput> {
    auto findings = verify::parseFindings(json::serialize(args), ctx.step, tools::kFindingsReport);
    if (!findings) return findings.error();
    std::size_t n = findings->size();
    sink.add(std::move(*findings));
    ToolOutput out;
    out.structured = json::object{{"accepted", n}, {"pending", sink.size()}};
    return out;
  };
  return t;
}

Tool githubEventTool(json::value event) {
  Tool t;
  t.name = tools::kGithubEvent;
  t.description = "The GitHub event payload that started this run (the same as LOOPWRIGHT_EVENT).";
  t.inputSchema = json::object{{"type", "object"}, {"properties", json::object{}}, {"additionalProperties", false}};
  t.handler = [event = std::move(event)](const json::object&, ToolContext&) -> Result<ToolOutput> {
    ToolOutput out;
    out.structured = event;
    return out;
  };
  return t;
}

}  // namespace lw::bridge
