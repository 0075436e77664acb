#include "github/publish/publication.h"

#include <boost/json.hpp>

#include "core/json_fields.h"
#include "core/step_coverage.h"

namespace lw::github {

namespace json = boost::json;
using namespace json_fields;

std::vector<Finding> allFindings(const PublicationRequest& request) {
  std::vector<Finding> out;
  for (const StageResult& s : request.stages) out.insert(out.end(), s.findings.begin(), s.findings.end());
  return out;
}

std::vector<CarriedFinding> stillCounting(const StageResult& stage) {
  std::vector<CarriedFinding> out;
  for (const CarriedFinding& c : stage.carried)
    if (c.stoppedBecause.empty()) out.push_back(c);
  return out;
}

namespace {

std::string where(const CarriedFinding& c) {
  return "`" + c.path + (c.line > 0 ? ":" + std::to_string(c.line) : "") + "`";
}

}  // namespace

std::vector<std::string> carriedSummary(const std::vector<CarriedFinding>& carried) {
  std::vector<std::string> out;
  for (Severity s : {Severity::Error, Severity::Warning, Severity::Notice}) {
    std::vector<std::string> at;
    for (const CarriedFinding& c : carried)
      if (c.severity == s && c.stoppedBecause.empty()) at.push_back(where(c));
    if (at.empty()) continue;
    std::string line = std::to_string(at.size()) + " " + std::string(toString(s)) + (at.size() == 1 ? "" : "s") +
                       " carried from an earlier review, at ";
    for (std::size_t i = 0; i < at.size(); ++i) line += (i ? ", " : "") + at[i];
    out.push_back(std::move(line));
  }
  return out;
}

std::string_view toString(Conclusion c) {
  switch (c) {
    case Conclusion::Success: return "success";
    case Conclusion::Neutral: return "neutral";
    case Conclusion::Failure: return "failure";
  }
  return "failure";
}

std::optional<Conclusion> conclusionNamed(std::string_view name) {
  for (Conclusion c : {Conclusion::Success, Conclusion::Neutral, Conclusion::Failure})
    if (toString(c) == name) return c;
  return std::nullopt;
}

bool failsAt(Severity s, FailOn failOn) {
  switch (failOn) {
    case FailOn::Error: return s == Severity::Error;
    case FailOn::Warning: return s == Severity::Error || s == Severity::Warning;
    case FailOn::Never: return false;
  }
  return false;
}

namespace {

// The value a name stood for, or the field's error.
template <typename T>
T known(std::optional<T> value, const std::string& field, const std::string& why) {
  if (!value) throw FieldError(field, why);
  return *value;
}

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

std::vector<std::string> readStrings(const json::object& o, const std::string& key, const std::string& path) {
  std::vector<std::string> out;
  if (const json::array* a = optArray(o, key, path)) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      std::string p = join(path, key) + "[" + std::to_string(i) + "]";
      if (!(*a)[i].is_string()) throw FieldError(p, "expected a string");
      out.emplace_back((*a)[i].get_string());
    }
  }
  return out;
}

json::object findingJson(const Finding& f) {
  json::object o;
  o["step"] = f.step;
  o["ruleId"] = f.ruleId;
  o["severity"] = toString(f.severity);
  o["message"] = f.message;
  o["path"] = f.path;
  o["line"] = f.line;
  o["endLine"] = f.endLine;
  if (f.suggestion) o["suggestion"] = *f.suggestion;
  return o;
}

Finding readFinding(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  Finding f;
  f.step = optStr(o, "step", path).value_or("");
  f.ruleId = optStr(o, "ruleId", path).value_or("");
  std::string sev = str(o, "severity", path);
  auto parsed = parseSeverity(sev);
  if (!parsed) throw FieldError(join(path, "severity"), "unknown severity '" + sev + "'");
  f.severity = *parsed;
  f.message = str(o, "message", path);
  f.path = optStr(o, "path", path).value_or("");
  f.line = static_cast<int>(optInt(o, "line", path).value_or(0));
  f.endLine = static_cast<int>(optInt(o, "endLine", path).value_or(0));
  f.suggestion = optStr(o, "suggestion", path);
  return f;
}

json::object carriedJson(const CarriedFinding& c) {
  return json::object{{"fingerprint", c.fingerprint},
                      {"severity", toString(c.severity)},
                      {"step", c.step},
                      {"path", c.path},
                      {"line", c.line},
                      {"commentId", c.commentId},
                      {"stoppedBecause", c.stoppedBecause}};
}

CarriedFinding readCarried(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  CarriedFinding c;
  c.fingerprint = str(o, "fingerprint", path);
  const std::string sev = str(o, "severity", path);
  c.severity = known(parseSeverity(sev), join(path, "severity"), "unknown severity '" + sev + "'");
  c.step = optStr(o, "step", path).value_or("");
  c.path = optStr(o, "path", path).value_or("");
  c.line = static_cast<int>(optInt(o, "line", path).value_or(0));
  c.commentId = optInt(o, "commentId", path).value_or(0);
  c.stoppedBecause = optStr(o, "stoppedBecause", path).value_or("");
  return c;
}

json::object triageJson(const TriageResult& t) {
  json::object o;
  o["step"] = t.step;
  o["labels"] = strings(t.labels);
  json::array dups;
  for (const auto& d : t.duplicates) dups.push_back(json::object{{"number", d.number}, {"reason", d.reason}});
  o["duplicates"] = std::move(dups);
  if (t.complete) o["complete"] = *t.complete;
  if (t.reproducible) o["reproducible"] = *t.reproducible;
  o["comment"] = t.comment;
  return o;
}

TriageResult readTriage(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  TriageResult t;
  t.step = optStr(o, "step", path).value_or("");
  t.labels = readStrings(o, "labels", path);
  if (const json::array* a = optArray(o, "duplicates", path)) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      std::string p = join(path, "duplicates") + "[" + std::to_string(i) + "]";
      const json::object& d = object((*a)[i], p);
      t.duplicates.push_back({static_cast<int>(integer(d, "number", p)), optStr(d, "reason", p).value_or("")});
    }
  }
  t.complete = optBool(o, "complete", path);
  t.reproducible = optBool(o, "reproducible", path);
  t.comment = optStr(o, "comment", path).value_or("");
  return t;
}

json::object stepJson(const StepRow& s) {
  json::object o{{"stage", s.stage},
                 {"step", s.step},
                 {"backend", s.backend},
                 {"capabilities", strings(s.capabilities)},
                 {"durationMs", s.durationMs},
                 {"exitCode", s.exitCode},
                 {"guardrailEvents", strings(s.guardrailEvents)},
                 {"blocked", s.blocked},
                 {"blocker", s.blocker},
                 {"outcome", s.outcome ? toString(*s.outcome) : std::string_view()},
                 {"tokensUsed", s.tokensUsed}};
  if (s.coverage) o["coverage"] = toJson(*s.coverage);
  return o;
}

StepRow readStep(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  StepRow s;
  s.stage = optStr(o, "stage", path).value_or("");
  s.step = str(o, "step", path);
  s.backend = optStr(o, "backend", path).value_or("");
  s.capabilities = readStrings(o, "capabilities", path);
  s.durationMs = optInt(o, "durationMs", path).value_or(0);
  s.exitCode = static_cast<int>(optInt(o, "exitCode", path).value_or(0));
  s.guardrailEvents = readStrings(o, "guardrailEvents", path);
  s.blocked = optBool(o, "blocked", path).value_or(false);
  s.blocker = optStr(o, "blocker", path).value_or("");
  s.outcome = rowOutcomeNamed(optStr(o, "outcome", path).value_or(""));
  s.tokensUsed = optInt(o, "tokensUsed", path).value_or(0);
  if (o.if_contains("coverage") && !o.at("coverage").is_null())
    s.coverage = readCoverage(o.at("coverage"), join(path, "coverage"));
  return s;
}

StageResult readStage(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  StageResult s;
  s.name = str(o, "name", path);
  if (const json::array* fs = optArray(o, "findings", path))
    for (std::size_t j = 0; j < fs->size(); ++j)
      s.findings.push_back(readFinding((*fs)[j], path + ".findings[" + std::to_string(j) + "]"));
  if (const json::array* cs = optArray(o, "carried", path))
    for (std::size_t j = 0; j < cs->size(); ++j)
      s.carried.push_back(readCarried((*cs)[j], path + ".carried[" + std::to_string(j) + "]"));
  return s;
}

// The taskpack's publication options; each absent one takes the taskpack's default.
Publication readOptions(const json::object& o) {
  Publication p;
  const std::string review = optStr(o, "review", "options").value_or("comment");
  p.review = known(reviewModeNamed(review), "options.review", "unknown review mode '" + review + "'");
  p.checks = optBool(o, "checks", "options").value_or(true);
  p.summary = optBool(o, "summary", "options").value_or(true);
  const std::string failOn = optStr(o, "failOn", "options").value_or("error");
  p.failOn = known(failOnNamed(failOn), "options.failOn", "unknown fail level '" + failOn + "'");
  p.maxInlineComments = static_cast<int>(optInt(o, "maxInlineComments", "options").value_or(50));
  const std::string patches = optStr(o, "patches", "options").value_or("suggestions");
  p.patches = known(patchPublicationNamed(patches), "options.patches", "unknown patch publication '" + patches + "'");
  return p;
}

// Each element of the array `key` (if present) read by `read`.
template <class T, class Read>
void readEach(const json::object& o, const char* key, std::vector<T>& out, Read read) {
  if (const json::array* a = optArray(o, key, ""))
    for (std::size_t i = 0; i < a->size(); ++i)
      out.push_back(read((*a)[i], std::string(key) + "[" + std::to_string(i) + "]"));
}

}  // namespace

json::value toJson(const PublicationRequest& r) {
  json::array stages;
  for (const StageResult& s : r.stages) {
    json::array findings;
    for (const Finding& f : s.findings) findings.push_back(findingJson(f));
    json::array carried;
    for (const CarriedFinding& c : s.carried) carried.push_back(carriedJson(c));
    stages.push_back(
        json::object{{"name", s.name}, {"findings", std::move(findings)}, {"carried", std::move(carried)}});
  }
  json::array triage;
  for (const auto& t : r.triage) triage.push_back(triageJson(t));
  json::array steps;
  for (const auto& s : r.steps) steps.push_back(stepJson(s));
  json::object options{{"review", toString(r.options.review)},
                       {"checks", r.options.checks},
                       {"summary", r.options.summary},
                       {"failOn", toString(r.options.failOn)},
                       {"maxInlineComments", r.options.maxInlineComments},
                       {"patches", toString(r.options.patches)}};
  json::array changes;
  for (const auto& c : r.changes) changes.push_back(toJson(c));
  json::value reviewed = nullptr;
  if (r.reviewedFiles) reviewed = strings(*r.reviewedFiles);
  return json::object{{"id", r.id},
                      {"reviewedFiles", std::move(reviewed)},
                      {"repository", r.repo.fullName()},
                      {"number", r.number},
                      {"isPullRequest", r.isPullRequest},
                      {"headSha", r.headSha},
                      {"stages", std::move(stages)},
                      {"triage", std::move(triage)},
                      {"steps", std::move(steps)},
                      {"conclusion", r.conclusion ? std::string(toString(*r.conclusion)) : std::string()},
                      {"options", std::move(options)},
                      {"changes", std::move(changes)},
                      {"origin", toString(r.origin)}};
}

Result<PublicationRequest> publicationFromJson(const json::value& v) {
  try {
    const json::object& o = object(v, "");
    PublicationRequest r;
    r.id = str(o, "id", "");
    std::string repo = str(o, "repository", "");
    auto slash = repo.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == repo.size())
      throw FieldError("repository", "expected \"owner/name\", found '" + repo + "'");
    r.repo = {repo.substr(0, slash), repo.substr(slash + 1)};
    r.number = static_cast<int>(integer(o, "number", ""));
    r.isPullRequest = boolean(o, "isPullRequest", "");
    r.headSha = optStr(o, "headSha", "").value_or("");
    readEach(o, "stages", r.stages, readStage);
    readEach(o, "triage", r.triage, readTriage);
    readEach(o, "steps", r.steps, readStep);
    // An entry written before the run was judged has none; any other name
    // is refused (an artifact's too, github/publish/run_artifact.h).
    if (const std::string name = optStr(o, "conclusion", "").value_or(""); !name.empty())
      r.conclusion = known(conclusionNamed(name), "conclusion", "unknown conclusion '" + name + "'");
    if (o.if_contains("reviewedFiles") && !o.at("reviewedFiles").is_null())
      r.reviewedFiles = readStrings(o, "reviewedFiles", "");
    if (const json::object* opt = optObject(o, "options", "")) r.options = readOptions(*opt);
    readEach(o, "changes", r.changes, proposedChangeFromJson);
    // Entries of 1.0 carry no origin: only this repository's runs wrote them.
    const std::string origin = optStr(o, "origin", "").value_or("trusted");
    r.origin = known(originNamed(origin), "origin", "unknown origin '" + origin + "'");
    return r;
  } catch (const FieldError& e) {
    Error err = makeError(ErrorCode::PublicationFailed, std::string("publication request is invalid: ") + e.what(),
                          "the outbox entry was written by another version or edited by hand");
    err.location = Location{.file = {}, .line = 0, .column = 0, .path = e.path};
    return err;
  }
}

}  // namespace lw::github
