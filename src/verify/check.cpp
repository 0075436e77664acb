#include "verify/check.h"

#include <fcntl.h>

#include <algorithm>
#include <set>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "verify/diff.h"
#include "verify/path_policy.h"
#include "verify/path_resolve.h"
#include "verify/quarantine.h"
#include "verify/restore.h"
#include "verify/watched_paths.h"

namespace lw::verify {
namespace {

void violate(Change& c, ErrorCode code, std::string reason) {
  c.violation = code;
  c.reason = std::move(reason);
}

bool mentionsFetchContent(const Change& c) {
  auto now = readFileAt(AT_FDCWD, c.resolved.c_str());
  return now && now->find("FetchContent") != std::string::npos;
}

// A directory on the way to a writable glob ("src" for "src/gen/**").
bool isAncestorOfScope(const std::string& rel, const std::vector<std::string>& globs) {
  for (const std::string& g : globs)
    if (g.starts_with(rel + "/")) return true;
  return false;
}

// Why a change to git's own state is refused, naming where it is.
std::string gitStateReason(const Change& c) {
  std::string where = c.area == Area::WorkTree ? "'" + c.path + "' is inside a .git"
                                               : "'" + (c.resolved.empty() ? c.path : c.resolved) +
                                                     "' is the repository's git state";
  return where + " (" + std::string(toString(c.category)) +
         "): nothing under a git directory is writable by any step";
}

constexpr const char* kAuthorGitHint =
    "author steps change the working tree only; loopwright makes the patch (no git add, commit or config); ";

void applyAuthorPolicy(const Baseline& b, const CheckPolicy& p, Change& c) {
  constexpr ErrorCode kPath = ErrorCode::PathPolicyViolation;
  if (touchesGitState(c.area, c.path) || c.category == Category::Hook)
    return violate(c, kPath, gitStateReason(c));
  if (isProtectedPath(c.path, p.protectedGlobs))
    return violate(c, kPath, "protected path");
  bool deleted = c.kind == ChangeKind::Deleted;
  if (!isWritablePath(c.path, p.writableGlobs) &&
      !(c.isDir && !deleted && isAncestorOfScope(c.path, p.writableGlobs)))
    return violate(c, kPath, "outside the step's writable scope");
  if (!c.linkTarget.empty()) {
    std::string dir = c.resolved.substr(0, c.resolved.rfind('/'));
    auto target = resolvePath(b.workTree, dir, c.linkTarget);
    if (!target) return violate(c, kPath, target.error().message);
    if (!target->inside)
      return violate(c, kPath, "symlink points outside the workspace: " + target->absolute);
    if (isProtectedPath(target->relative, p.protectedGlobs))
      return violate(c, kPath, "symlink into a protected path: " + target->relative);
    if (isInsideGitDir(target->relative))
      return violate(c, kPath, "symlink into a git directory: " + target->relative);
  }
}

void markDependency(Change& c, std::vector<Finding>& findings, const std::string& step) {
  if (c.area != Area::WorkTree || c.isDir) return;
  DependencyKind k = dependencyKindOf(c.path);
  if (k == DependencyKind::None) return;
  if (k == DependencyKind::CMakeMaybe && !mentionsFetchContent(c)) return;
  c.dependency = true;
  Finding f;
  f.step = step;
  f.ruleId = "verify/dependency-change";
  f.severity = Severity::Warning;
  f.message = "Dependency manifest or lock file " + std::string(toString(c.kind)) + ": `" +
              c.path + "`. Review the dependency change before merging.";
  f.path = c.kind == ChangeKind::Deleted ? "" : c.path;
  findings.push_back(std::move(f));
}

void checkDeclared(const Baseline& b, const CheckPolicy& p, CheckReport& r) {
  constexpr ErrorCode kPath = ErrorCode::PathPolicyViolation;
  for (const std::string& given : p.declaredPaths) {
    Change c;
    c.path = c.given = given;
    auto res = resolvePath(b.workTree, p.cwd.empty() ? b.repoDir : p.cwd, given);
    if (!res) {
      violate(c, kPath, res.error().message);
    } else {
      c.resolved = res->absolute;
      c.path = res->relative;
      if (!res->inside) {
        violate(c, kPath, "outside the workspace");
      } else if (isInsideGitDir(res->relative)) {
        violate(c, kPath, "'" + res->relative + "' is inside a .git: no step may write there");
      } else if (isProtectedPath(res->relative, p.protectedGlobs)) {
        violate(c, kPath, "protected path");
      } else if (!isWritablePath(res->relative, p.writableGlobs)) {
        violate(c, kPath, "outside the step's writable scope");
      }
    }
    c.path = given;
    if (c.violation) r.declared.push_back(std::move(c));
  }
}

// The policy's own quarantine refs (written by earlier checks against this
// baseline) are loopwright's, not the step's: left out of `changes` while
// each still points where it was written. One the step moved keeps its ref
// change; one it deleted, no change at all against the baseline, gets one.
Status settleOwnQuarantines(const CheckPolicy& p, DiffResult& diff) {
  if (p.ownQuarantines.empty()) return Ok{};
  if (!diff.refs)
    return makeError(ErrorCode::IoError, "refs unreadable after the step",
                     "check that the repository's .git is readable by loopwright");
  const std::vector<RefState>& refs = *diff.refs;
  std::vector<Change>& changes = diff.changes;
  std::set<std::string> intact;
  for (const auto& [ref, commit] : p.ownQuarantines) {
    auto it = std::find_if(refs.begin(), refs.end(), [&ref = ref](const RefState& s) { return s.name == ref; });
    if (it != refs.end()) {
      if (it->target == commit) intact.insert(ref);
      continue;
    }
    Change c;
    c.kind = ChangeKind::RefDeleted;
    c.category = Category::Ref;
    c.area = Area::GitDir;
    c.path = ref;
    c.detail = commit + " -> (none)";
    changes.push_back(std::move(c));
  }
  std::erase_if(changes, [&](const Change& c) {
    if (c.area != Area::GitDir) return false;
    if (c.kind == ChangeKind::RefAdded) return intact.contains(c.path);
    if (c.kind != ChangeKind::Added) return false;
    // The directories made for the refs, and their loose files (what a
    // loose file holds shows in its ref's change).
    if (c.isDir)
      return std::any_of(p.ownQuarantines.begin(), p.ownQuarantines.end(),
                         [&](const auto& q) { return q.first.starts_with(c.path + "/"); });
    return p.ownQuarantines.contains(c.path);
  });
  return Ok{};
}

}  // namespace

Result<CheckReport> check(const Baseline& b, const CheckPolicy& p) {
  auto diff = diffAgainstBaseline(b);
  if (!diff) return diff.error();
  CheckReport r;
  if (auto st = settleOwnQuarantines(p, *diff); !st) return st.error();
  r.changes = std::move(diff->changes);
  r.notes = std::move(diff->notes);
  bool readOnly = p.role != Role::Author;
  for (Change& c : r.changes) {
    markDependency(c, r.findings, p.stepName);
    if (c.benign) continue;
    if (readOnly) {
      violate(c, ErrorCode::ReadOnlyViolation,
              "a " + std::string(toString(p.role)) + " step may not change the repository");
    } else {
      applyAuthorPolicy(b, p, c);
    }
  }
  if (!readOnly) checkDeclared(b, p, r);
  std::vector<bool> selected;
  for (const std::vector<Change>* list : {&r.changes, &r.declared})
    for (const Change& c : *list) {
      if (!c.violation) continue;
      if (!r.violation) r.violation = c.violation;
      ++r.violations;
    }
  // Earlier steps' quarantine refs are put back below, not restored away.
  auto isOwnRef = [&](const Change& c) {
    return c.area == Area::GitDir && p.ownQuarantines.contains(c.path);
  };
  for (const Change& c : r.changes)
    selected.push_back((readOnly || c.violation.has_value()) && !isOwnRef(c));
  if (!p.restore || r.violations == 0) return r;

  std::vector<Change> kept;
  for (std::size_t i = 0; i < r.changes.size(); ++i)
    if (selected[i]) kept.push_back(r.changes[i]);
  auto commit = kept.empty() ? Result<std::string>(std::string())
                             : writeQuarantineCommit(b, kept, p.runId, p.stepName);
  if (!commit) {
    // Restoring now would destroy the only copy of what the step did.
    r.notes.push_back("quarantine: " + commit.error().message);
    r.restoreFailures.push_back("nothing restored: the changes could not be kept for inspection first");
    return r;
  }
  r.restoreFailures = restoreChanges(b, r.changes, selected);
  // An earlier step's quarantine ref the step moved or deleted is put back
  // where it was written: it is evidence.
  for (Change& c : r.changes) {
    if (!isOwnRef(c)) continue;
    if (auto st = writeQuarantineRef(b, c.path, p.ownQuarantines.at(c.path)); st)
      c.restored = true;
    else
      r.restoreFailures.push_back(c.path + ": " + st.error().message);
  }
  r.restored = r.restoreFailures.empty();
  if (commit && !commit->empty()) {
    std::string ref = quarantineRefName(p.runId, p.stepName);
    if (auto st = writeQuarantineRef(b, ref, *commit); st) {
      r.quarantineRef = ref;
      r.quarantineCommit = *commit;
    } else {
      r.notes.push_back("quarantine: " + st.error().message + "; the changes are in commit " + *commit);
    }
  }
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
           (first->resolved.empty() || first->resolved == first->given
                ? ""
                : " (resolved: " + first->resolved + ")") +
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
