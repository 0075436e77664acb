#include "verify/check/check.h"

#include <algorithm>
#include <iterator>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "verify/baseline/watched_paths.h"
#include "verify/check/check_decision.h"
#include "verify/check/check_detect.h"
#include "verify/check/quarantine.h"
#include "verify/check/restore.h"

namespace lw::verify {
namespace {

constexpr const char* kAuthorGitHint =
    "author steps change the working tree only; loopwright makes the patch (no git add, commit or config); ";

// Keeps the changes to undo in a quarantine commit (objects only, no ref
// yet). Fails when they cannot be kept: restoring then would destroy the
// only copy of what the step did, so nothing is.
Result<std::string> quarantine(const Baseline& b, const CheckPolicy& p, CheckReport& r) {
  std::vector<Change> kept;
  std::copy_if(r.changes.begin(), r.changes.end(), std::back_inserter(kept),
               [](const Change& c) { return c.remedy == Remedy::Undo; });
  if (kept.empty()) return std::string();
  auto commit = writeQuarantineCommit(b, kept, p.runId, p.stepName);
  if (!commit) {
    r.notes.push_back("quarantine: " + commit.error().message);
    r.restoreFailures.push_back("nothing restored: the changes could not be kept for inspection first");
  }
  return commit;
}

// Undoes the step's changes, then points every earlier step's quarantine
// ref the step moved or deleted back where it was written: it is evidence.
void restore(const Baseline& b, const CheckPolicy& p, CheckReport& r) {
  r.restoreFailures = restoreChanges(b, r.changes);
  for (Change& c : r.changes) {
    if (c.remedy != Remedy::PutBack) continue;
    if (auto st = writeQuarantineRef(b, c.path, p.ownQuarantines.at(c.path)); st)
      c.restored = true;
    else
      r.restoreFailures.push_back(c.path + ": " + st.error().message);
  }
  r.restored = r.restoreFailures.empty();
}

// Names the quarantine commit with its ref, after the restore (which puts
// the refs back as the baseline had them).
void recordQuarantine(const Baseline& b, const CheckPolicy& p, const std::string& commit, CheckReport& r) {
  if (commit.empty()) return;
  std::string ref = quarantineRefName(p.runId, p.stepName);
  if (auto st = writeQuarantineRef(b, ref, commit); st) {
    r.quarantineRef = ref;
    r.quarantineCommit = commit;
  } else {
    r.notes.push_back("quarantine: " + st.error().message + "; the changes are in commit " + commit);
  }
}

}  // namespace

std::string_view toString(Verification v) {
  switch (v) {
    case Verification::NotRun: return "not-run";
    case Verification::Passed: return "passed";
    case Verification::Violation: return "violation";
  }
  return "not-run";
}

Verification verificationOf(const CheckReport& r) { return r.ok() ? Verification::Passed : Verification::Violation; }

Result<CheckReport> check(const Baseline& b, const CheckPolicy& p) {
  auto observation = observeChanges(b, p);
  if (!observation) return observation.error();
  CheckReport r = decide(std::move(*observation), p);
  if (!remedyDue(p, r)) return r;
  auto commit = quarantine(b, p, r);
  if (!commit) return r;
  restore(b, p, r);
  recordQuarantine(b, p, *commit, r);
  return r;
}

boost::json::value toJson(const CheckReport& r, const Baseline& b) {
  boost::json::object o;
  o["ok"] = r.ok();
  o["violation"] = r.violation ? boost::json::value(codeName(*r.violation)) : nullptr;
  o["violations"] = r.violations;
  o["repository"] = b.workTree;
  // Git's own gc the baseline waited for: not the step's, and said so.
  boost::json::array waits;
  for (const MaintenanceWait& w : b.maintenanceWaits)
    waits.push_back({{"pidFile", w.pidFile}, {"pid", w.pid}, {"waitedMs", w.waitedMs}});
  o["gitMaintenanceWaited"] = std::move(waits);
  auto changeJson = [](const Change& c) {
    boost::json::object j;
    j["path"] = c.path;
    j["kind"] = toString(c.kind);
    j["category"] = toString(c.category);
    j["area"] = toString(c.area);
    j["given"] = c.given;
    j["resolved"] = c.resolved;
    if (!c.detail.empty()) j["detail"] = c.detail;
    j["violation"] = c.violation ? boost::json::value(codeName(*c.violation)) : nullptr;
    if (!c.reason.empty()) j["reason"] = c.reason;
    j["restorable"] = c.restorable;
    j["restored"] = c.restored;
    j["dependency"] = c.dependency;
    if (c.benign) j["benign"] = true;
    return j;
  };
  boost::json::array changes, declared, failures, notes;
  for (const Change& c : r.changes) changes.push_back(changeJson(c));
  for (const Change& c : r.declared) declared.push_back(changeJson(c));
  for (const auto& f : r.restoreFailures) failures.push_back(boost::json::string(f));
  for (const auto& n : r.notes) notes.push_back(boost::json::string(n));
  o["changes"] = std::move(changes);
  o["declared"] = std::move(declared);
  if (!r.quarantineRef.empty()) {
    o["quarantine"] = {{"ref", r.quarantineRef}, {"commit", r.quarantineCommit}};
  } else {
    o["quarantine"] = nullptr;
  }
  o["restored"] = r.restored;
  o["restoreFailures"] = std::move(failures);
  o["notes"] = std::move(notes);
  return o;
}

Error toError(const CheckReport& r) {
  const Change* first = nullptr;
  for (const std::vector<Change>* list : {&r.changes, &r.declared})
    for (const Change& c : *list)
      if (c.violation && first == nullptr) first = &c;
  std::string msg = std::to_string(r.violations) + " violation" + (r.violations == 1 ? "" : "s");
  if (first != nullptr)
    msg += "; first: " + std::string(toString(first->kind)) + " '" + first->given + "'" +
           (first->resolved.empty() || first->resolved == first->given ? "" : " (resolved: " + first->resolved + ")") +
           ": " + first->reason;
  std::string hint;
  if (first != nullptr && first->violation == ErrorCode::PathPolicyViolation &&
      touchesGitState(first->area, first->path))
    hint = kAuthorGitHint;
  if (!r.quarantineRef.empty()) hint += "the changes are kept under " + r.quarantineRef + "; ";
  if (r.restored)
    hint += "the repository was restored to the baseline";
  else if (r.restoreFailures.empty())  // no restore was asked for
    hint += "the changes are still in place; 'verify check --restore' keeps them aside and undoes them";
  else
    hint += "the repository was not (fully) restored: " + r.restoreFailures.front();
  return makeError(r.violation.value_or(ErrorCode::Internal), msg, hint);
}

}  // namespace lw::verify
