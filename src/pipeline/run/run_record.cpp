#include "pipeline/run/run_record.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "github/publish/channels/coverage_section.h"

namespace lw::pipeline {
namespace {

boost::json::array strings(const std::vector<std::string>& items) {
  boost::json::array a;
  for (const auto& s : items) a.emplace_back(s);
  return a;
}

boost::json::object findingJson(const Finding& f) {
  boost::json::object o;
  o["step"] = f.step;
  o["ruleId"] = f.ruleId;
  o["severity"] = toString(f.severity);
  o["message"] = f.message;
  if (!f.path.empty()) o["path"] = f.path;
  if (f.line > 0) o["line"] = f.line;
  if (f.endLine > 0) o["endLine"] = f.endLine;
  if (f.suggestion) o["suggestion"] = *f.suggestion;
  return o;
}

boost::json::object triageJson(const TriageResult& triage) {
  boost::json::array dups;
  for (const auto& d : triage.duplicates) dups.push_back({{"number", d.number}, {"reason", d.reason}});
  boost::json::object t;
  t["labels"] = strings(triage.labels);
  t["duplicates"] = std::move(dups);
  t["complete"] = triage.complete ? boost::json::value(*triage.complete) : nullptr;
  t["reproducible"] = triage.reproducible ? boost::json::value(*triage.reproducible) : nullptr;
  t["comment"] = triage.comment;
  return t;
}

boost::json::value validationJson(const ValidationRun& v) {
  return {{"command", strings(v.command)},
          {"exitStatus", v.exitStatus},
          {"timedOut", v.timedOut},
          {"wallTimeMs", v.wallTimeMs},
          {"passed", v.passed},
          {"durationMs", v.durationMs},
          {"stdout", v.stdoutPath},
          {"stderr", v.stderrPath},
          {"secretsMasked", v.secretsMasked},
          {"error", v.error.empty() ? boost::json::value(nullptr) : boost::json::value(v.error)}};
}

// The validate run, one line under the step in the terminal summary.
std::string validationLine(const ValidationRun& v) {
  std::string line = "validate `";
  for (std::size_t i = 0; i < v.command.size(); ++i) line += (i ? " " : "") + v.command[i];
  line += "`: " + std::string(v.passed ? "passed" : "failed");
  if (!v.error.empty()) return line + " (could not run: " + v.error + ")";
  line += v.timedOut ? " (ran past " + std::to_string(v.wallTimeMs) + " ms" : " (exit " + std::to_string(v.exitStatus);
  return line + ", " + std::to_string(v.durationMs) + " ms, logs " + v.stdoutPath + ")";
}

boost::json::value changeJson(const AuthorChange& c) {
  return {{"baseCommit", c.baseCommit},
          {"patchFile", c.patchFile},
          {"paths", strings(c.paths)},
          {"filesChanged", c.filesChanged},
          {"linesAdded", c.linesAdded},
          {"linesDeleted", c.linesDeleted},
          {"binary", !c.binaryPaths.empty()},
          {"binaryPaths", strings(c.binaryPaths)},
          {"binaryBytes", c.binaryBytes},
          {"accepted", c.accepted},
          {"refusedBecause", c.refusedBecause},
          {"validation", c.validation ? validationJson(*c.validation) : boost::json::value(nullptr)}};
}

// An author step's proposed change, one line: its size and patch, or why it
// is not published.
std::string changeLine(const AuthorChange& c) {
  std::string size = std::to_string(c.filesChanged) + (c.filesChanged == 1 ? " file" : " files") + ", +" +
                     std::to_string(c.linesAdded) + " -" + std::to_string(c.linesDeleted) +
                     (c.binaryPaths.empty() ? "" : ", binary " + std::to_string(c.binaryBytes) + " bytes");
  if (c.accepted) return "change: " + size + ", patch " + c.patchFile;
  return "change not accepted: " + c.refusedBecause +
         (c.patchFile.empty() ? "" : " (" + size + ", patch " + c.patchFile + ")");
}

boost::json::value escalationJson(const StepEscalation& e) {
  boost::json::object o{{"from", toString(e.from)}, {"to", toString(e.to)}, {"trigger", e.trigger}, {"rerun", e.rerun}};
  o["notRerunBecause"] = e.rerun ? boost::json::value(nullptr) : boost::json::value(e.notRerunBecause);
  o["firstAttempt"] = e.rerun ? boost::json::value{{"outcome", toString(e.firstOutcome)},
                                                   {"backend", e.firstBackend},
                                                   {"blocker", e.firstBlocker},
                                                   {"stepDir", e.firstOutDir},
                                                   {"durationMs", e.firstDurationMs}}
                              : boost::json::value(nullptr);
  return o;
}

// One line under the step in the terminal summary.
std::string escalationLine(const StepEscalation& e) {
  const std::string chain = std::string(toString(e.from)) + " -> " + std::string(toString(e.to)) + " on " + e.trigger;
  if (!e.rerun) return "escalation " + chain + " not run: " + e.notRerunBecause;
  return "escalation " + chain + ": re-run once; the first attempt was " + std::string(toString(e.firstOutcome)) +
         (e.firstBackend.empty() ? "" : " on " + e.firstBackend) + " (kept in " + e.firstOutDir + ")";
}

}  // namespace

std::int64_t tokensUsed(const RunRecord& run) {
  std::int64_t total = 0;
  for (const StageRecord& stage : run.stages)
    for (const StepRecord& s : stage.steps) total += s.tokensUsed;
  return total;
}

boost::json::value toJson(const StepRecord& s) {
  boost::json::object o;
  o["stage"] = s.stage;
  o["step"] = s.step;
  o["role"] = toString(s.role);
  o["outcome"] = toString(s.outcome);
  o["backend"] = s.backend.empty() ? boost::json::value(nullptr) : boost::json::value(s.backend);
  o["capabilitiesEnforced"] = strings(s.enforced);
  o["backendsRefused"] = strings(s.refusals);
  o["networkMode"] = s.networkMode;
  o["exitStatus"] = s.exitStatus;
  o["timedOut"] = s.timedOut;
  o["descendantsKilled"] = s.descendantsKilled ? boost::json::value(*s.descendantsKilled) : nullptr;
  o["limits"] = s.limits;
  o["sandboxNotes"] = strings(s.sandboxNotes);
  o["egress"] = s.egress;
  o["durationMs"] = s.durationMs;
  boost::json::array events;
  for (const GuardrailEvent& e : s.guardrails)
    events.push_back({{"kind", e.kind}, {"code", e.code}, {"message", e.message}, {"atMs", e.atMs}});
  o["guardrailEvents"] = std::move(events);
  o["toolCalls"] = s.toolCalls;
  o["modelCalls"] = s.modelCalls;
  o["tokensUsed"] = s.tokensUsed;
  o["inputTokens"] = s.inputTokens;
  o["outputTokens"] = s.outputTokens;
  o["coverage"] = s.coverage ? toJson(*s.coverage) : boost::json::value(nullptr);
  boost::json::object v;
  v["result"] = verify::toString(s.verification);
  if (!s.violationCode.empty()) v["violation"] = s.violationCode;
  if (!s.quarantineRef.empty()) v["quarantineRef"] = s.quarantineRef;
  v["repositoryIntact"] = s.repositoryIntact;
  v["report"] = s.verificationReport;
  o["verification"] = std::move(v);
  o["outputsAccepted"] = s.outputsAccepted;
  boost::json::array findings;
  for (const Finding& f : s.findings) findings.push_back(findingJson(f));
  o["findings"] = std::move(findings);
  o["triage"] = s.triage ? triageJson(*s.triage) : boost::json::value(nullptr);
  o["change"] = s.change ? changeJson(*s.change) : boost::json::value(nullptr);
  o["escalation"] = s.escalation ? escalationJson(*s.escalation) : boost::json::value(nullptr);
  o["secretsMasked"] = s.secretsMasked;
  o["blocker"] = s.blocker.empty() ? boost::json::value(nullptr) : boost::json::value(s.blocker);
  o["message"] = s.message;
  o["outDir"] = s.outDir;
  o["logs"] = {{"stdout", s.stdoutPath},
               {"stderr", s.stderrPath},
               {"stdoutTruncated", s.stdoutTruncated},
               {"stderrTruncated", s.stderrTruncated}};
  return o;
}

boost::json::value toJson(const RunRecord& run) {
  boost::json::object o;
  o["schemaVersion"] = 1;
  o["runId"] = run.runId;
  o["taskpack"] = run.taskpack;
  o["event"] = {{"name", run.eventName}, {"action", run.eventAction}};
  o["repo"] = run.repo;
  o["startedAt"] = run.startedAt;
  o["durationMs"] = run.durationMs;
  o["incrementalFrom"] =
      run.incrementalFrom.empty() ? boost::json::value(nullptr) : boost::json::value(run.incrementalFrom);
  o["tokensUsed"] = tokensUsed(run);
  boost::json::array stages;
  for (const StageRecord& st : run.stages) {
    boost::json::array steps;
    for (const StepRecord& s : st.steps) steps.push_back(toJson(s));
    stages.push_back({{"name", st.name},
                      {"ran", st.ran},
                      {"skippedBecause", st.skippedBecause},
                      {"durationMs", std::round(st.durationMs * 100) / 100},
                      {"steps", std::move(steps)}});
  }
  o["stages"] = std::move(stages);
  o["stagesNotSelected"] = strings(run.skippedStages);
  return o;
}

namespace {

// allow-list: the proxy's decisions in a line, and each denied one.
void printEgress(std::ostream& out, const boost::json::value& egress) {
  if (!egress.is_array()) return;
  std::size_t allowed = 0;
  for (const auto& c : egress.as_array()) allowed += c.at("allowed").as_bool() ? 1 : 0;
  const std::size_t denied = egress.as_array().size() - allowed;
  out << "    egress: " << allowed << " allowed, " << denied << " denied\n";
  for (const auto& c : egress.as_array())
    if (!c.at("allowed").as_bool())
      out << "    egress denied " << std::string_view(c.at("host").as_string()) << ":" << c.at("port").as_int64()
          << ": " << std::string_view(c.at("reason").as_string()) << "\n";
}

void printStep(std::ostream& out, const StepRecord& s) {
  out << "  " << s.step << ": " << toString(s.outcome);
  if (!s.backend.empty()) out << " on " << s.backend;
  out << ", exit " << s.exitStatus << ", " << s.durationMs << " ms, verification " << verify::toString(s.verification)
      << ", " << s.findings.size() << (s.findings.size() == 1 ? " finding" : " findings");
  if (s.toolCalls > 0) out << ", " << s.toolCalls << " tool calls";
  if (s.tokensUsed > 0) out << ", " << s.tokensUsed << " tokens";
  out << "\n";
  if (s.coverage) out << "    coverage: " << github::coverageCounts(*s.coverage) << "\n";
  for (const GuardrailEvent& e : s.guardrails)
    out << "    guardrail " << e.kind << " " << e.code << ": " << e.message << "\n";
  for (const Finding& f : s.findings) {
    out << "    " << toString(f.severity) << " " << f.ruleId;
    if (!f.path.empty()) out << " " << f.path << (f.line > 0 ? ":" + std::to_string(f.line) : "");
    // The first line: a terminal summary lists findings, the record holds them whole.
    out << ": " << f.message.substr(0, std::min<std::size_t>(200, f.message.find('\n'))) << "\n";
  }
  if (s.escalation) out << "    " << escalationLine(*s.escalation) << "\n";
  if (s.change) out << "    " << changeLine(*s.change) << "\n";
  if (s.change && s.change->validation) out << "    " << validationLine(*s.change->validation) << "\n";
  if (!s.blocker.empty())
    out << "    " << s.blocker << "\n";
  else if (!s.message.empty() && s.outcome != StepOutcome::Passed)
    out << "    " << s.message << "\n";
  printEgress(out, s.egress);
}

}  // namespace

std::string humanSummary(const RunRecord& run) {
  std::ostringstream out;
  out << "loopwright run " << run.runId << " — " << run.eventName
      << (run.eventAction.empty() ? "" : "." + run.eventAction) << " on " << run.repo << " (" << run.durationMs
      << " ms)\n";
  for (const StageRecord& st : run.stages) {
    out << "\nstage " << st.name;
    if (!st.ran) {
      out << ": skipped (" << st.skippedBecause << ")\n";
      continue;
    }
    out << " (" << static_cast<long long>(std::llround(st.durationMs)) << " ms)\n";
    for (const StepRecord& s : st.steps) printStep(out, s);
  }
  if (std::int64_t tokens = tokensUsed(run); tokens > 0) out << "\ntokens used: " << tokens << "\n";
  if (!run.skippedStages.empty()) {
    out << "\nnot selected by this event:";
    for (const auto& s : run.skippedStages) out << " " << s;
    out << "\n";
  }
  return out.str();
}

}  // namespace lw::pipeline
