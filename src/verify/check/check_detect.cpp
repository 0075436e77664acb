#include "verify/check/check_detect.h"

#include <fcntl.h>

#include <algorithm>
#include <set>

#include "verify/baseline/diff.h"
#include "verify/baseline/fs_walk.h"
#include "verify/check/path_policy.h"

namespace lw::verify {
namespace {

bool mentionsFetchContent(const Change& c) {
  if (c.area != Area::WorkTree || c.isDir || dependencyKindOf(c.path) != DependencyKind::CMakeMaybe) return false;
  auto now = readFileAt(AT_FDCWD, c.resolved.c_str());
  return now && now->find("FetchContent") != std::string::npos;
}

ObservedChange observe(const Baseline& b, const CheckPolicy& p, Change c) {
  ObservedChange o;
  o.mentionsFetchContent = mentionsFetchContent(c);
  if (p.role == Role::Author && !c.linkTarget.empty()) {
    std::string dir = c.resolved.substr(0, c.resolved.rfind('/'));
    o.linkTarget = resolvePath(b.workTree, dir, c.linkTarget);
  }
  o.change = std::move(c);
  return o;
}

Change ownRefDeleted(const std::string& ref, const std::string& commit) {
  Change c;
  c.kind = ChangeKind::RefDeleted;
  c.category = Category::Ref;
  c.area = Area::GitDir;
  c.path = ref;
  c.detail = commit + " -> (none)";
  return c;
}

// Whether a change is the making of one of the policy's intact quarantine
// refs: the ref itself, the directories made for it, or its loose file
// (what a loose file holds shows in its ref's change).
bool makesOwnRef(const Change& c, const CheckPolicy& p, const std::set<std::string>& intact) {
  if (c.area != Area::GitDir) return false;
  if (c.kind == ChangeKind::RefAdded) return intact.contains(c.path);
  if (c.kind != ChangeKind::Added) return false;
  if (c.isDir)
    return std::any_of(p.ownQuarantines.begin(), p.ownQuarantines.end(),
                       [&](const auto& q) { return q.first.starts_with(c.path + "/"); });
  return p.ownQuarantines.contains(c.path);
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
  std::set<std::string> intact;
  for (const auto& [ref, commit] : p.ownQuarantines) {
    auto it =
        std::find_if(diff.refs->begin(), diff.refs->end(), [&ref = ref](const RefState& s) { return s.name == ref; });
    if (it == diff.refs->end())
      diff.changes.push_back(ownRefDeleted(ref, commit));
    else if (it->target == commit)
      intact.insert(ref);
  }
  std::erase_if(diff.changes, [&](const Change& c) { return makesOwnRef(c, p, intact); });
  return Ok{};
}

}  // namespace

Result<Observation> observeChanges(const Baseline& b, const CheckPolicy& p) {
  auto diff = diffAgainstBaseline(b);
  if (!diff) return diff.error();
  if (auto st = settleOwnQuarantines(p, *diff); !st) return st.error();
  Observation o;
  o.notes = std::move(diff->notes);
  for (Change& c : diff->changes) o.changes.push_back(observe(b, p, std::move(c)));
  if (p.role != Role::Author) return o;
  for (const std::string& given : p.declaredPaths)
    o.declared.push_back({given, resolvePath(b.workTree, p.cwd.empty() ? b.repoDir : p.cwd, given)});
  return o;
}

}  // namespace lw::verify
