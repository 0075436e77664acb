#include "verify/check/check_decision.h"

#include "verify/baseline/watched_paths.h"
#include "verify/check/path_policy.h"

namespace lw::verify {
namespace {

constexpr ErrorCode kPath = ErrorCode::PathPolicyViolation;

Verdict refuse(ErrorCode code, std::string reason) { return {code, std::move(reason)}; }

// A directory on the way to a writable glob ("src" for "src/gen/**").
bool isAncestorOfScope(const std::string& rel, const std::vector<std::string>& globs) {
  for (const std::string& g : globs)
    if (g.starts_with(rel + "/")) return true;
  return false;
}

// Why a change to git's own state is refused, naming where it is.
std::string gitStateReason(const Change& c) {
  std::string where = c.area == Area::WorkTree
                          ? "'" + c.path + "' is inside a .git"
                          : "'" + (c.resolved.empty() ? c.path : c.resolved) + "' is the repository's git state";
  return where + " (" + std::string(toString(c.category)) + "): nothing under a git directory is writable by any step";
}

// A symlink the author left is held to the policy at the place it leads to.
Verdict symlinkVerdict(const Result<ResolvedPath>& target, const CheckPolicy& p) {
  if (!target) return refuse(kPath, target.error().message);
  if (!target->inside) return refuse(kPath, "symlink points outside the workspace: " + target->absolute);
  if (isProtectedPath(target->relative, p.protectedGlobs))
    return refuse(kPath, "symlink into a protected path: " + target->relative);
  if (isInsideGitDir(target->relative)) return refuse(kPath, "symlink into a git directory: " + target->relative);
  return {};
}

Verdict authorVerdict(const ObservedChange& o, const CheckPolicy& p) {
  const Change& c = o.change;
  if (touchesGitState(c.area, c.path) || c.category == Category::Hook) return refuse(kPath, gitStateReason(c));
  if (isProtectedPath(c.path, p.protectedGlobs)) return refuse(kPath, "protected path");
  bool deleted = c.kind == ChangeKind::Deleted;
  if (!isWritablePath(c.path, p.writableGlobs) && !(c.isDir && !deleted && isAncestorOfScope(c.path, p.writableGlobs)))
    return refuse(kPath, "outside the step's writable scope");
  if (o.linkTarget) return symlinkVerdict(*o.linkTarget, p);
  return {};
}

// A dependency manifest or lock file the step changed, as a finding.
std::optional<Finding> dependencyFinding(const ObservedChange& o, const std::string& step) {
  const Change& c = o.change;
  if (c.area != Area::WorkTree || c.isDir) return std::nullopt;
  DependencyKind k = dependencyKindOf(c.path);
  if (k == DependencyKind::None || (k == DependencyKind::CMakeMaybe && !o.mentionsFetchContent)) return std::nullopt;
  Finding f;
  f.step = step;
  f.ruleId = "verify/dependency-change";
  f.severity = Severity::Warning;
  f.message = "Dependency manifest or lock file " + std::string(toString(c.kind)) + ": `" + c.path +
              "`. Review the dependency change before merging.";
  f.path = c.kind == ChangeKind::Deleted ? "" : c.path;
  return f;
}

void count(CheckReport& r, const Change& c) {
  if (!c.violation) return;
  if (!r.violation) r.violation = c.violation;
  ++r.violations;
}

}  // namespace

Verdict verdictFor(const ObservedChange& o, const CheckPolicy& p) {
  if (o.change.benign) return {};
  if (p.role == Role::Author) return authorVerdict(o, p);
  return refuse(ErrorCode::ReadOnlyViolation,
                "a " + std::string(toString(p.role)) + " step may not change the repository");
}

Verdict verdictFor(const DeclaredPath& d, const CheckPolicy& p) {
  if (!d.resolved) return refuse(kPath, d.resolved.error().message);
  const ResolvedPath& res = *d.resolved;
  if (!res.inside) return refuse(kPath, "outside the workspace");
  if (isInsideGitDir(res.relative))
    return refuse(kPath, "'" + res.relative + "' is inside a .git: no step may write there");
  if (isProtectedPath(res.relative, p.protectedGlobs)) return refuse(kPath, "protected path");
  if (!isWritablePath(res.relative, p.writableGlobs)) return refuse(kPath, "outside the step's writable scope");
  return {};
}

Remedy remedyFor(const Change& c, const CheckPolicy& p) {
  // Earlier steps' quarantine refs are evidence: put back, not restored away.
  if (c.area == Area::GitDir && p.ownQuarantines.contains(c.path)) return Remedy::PutBack;
  // A read-only step's every change goes, the benign index refresh with it.
  if (p.role != Role::Author || c.violation) return Remedy::Undo;
  return Remedy::None;
}

bool remedyDue(const CheckPolicy& p, const CheckReport& r) { return p.restore && r.violations > 0; }

CheckReport decide(Observation o, const CheckPolicy& p) {
  CheckReport r;
  r.notes = std::move(o.notes);
  for (ObservedChange& observed : o.changes) {
    if (auto f = dependencyFinding(observed, p.stepName)) {
      observed.change.dependency = true;
      r.findings.push_back(std::move(*f));
    }
    Verdict v = verdictFor(observed, p);
    observed.change.violation = v.violation;
    observed.change.reason = std::move(v.reason);
    count(r, observed.change);
    r.changes.push_back(std::move(observed.change));
  }
  for (const DeclaredPath& d : p.role == Role::Author ? o.declared : std::vector<DeclaredPath>{}) {
    Verdict v = verdictFor(d, p);
    if (!v.violation) continue;
    Change c;
    c.path = c.given = d.given;
    if (d.resolved) c.resolved = d.resolved->absolute;
    c.violation = v.violation;
    c.reason = std::move(v.reason);
    count(r, c);
    r.declared.push_back(std::move(c));
  }
  if (remedyDue(p, r))
    for (Change& c : r.changes) c.remedy = remedyFor(c, p);
  return r;
}

}  // namespace lw::verify
