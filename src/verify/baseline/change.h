// One difference between a baseline and the repository after a step, and
// the words used for it in reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "verify/baseline/baseline.h"

namespace lw::verify {

enum class ChangeKind : std::uint8_t {
  Added,
  Modified,
  Deleted,
  Mode,         // permissions only
  Symlink,      // a symlink's target changed, or a file/dir became one or stopped being one
  TypeChanged,  // file <-> directory
  RefAdded,
  RefDeleted,
  RefMoved,
  Head,  // HEAD points elsewhere
};
std::string_view toString(ChangeKind k);

// What part of the repository a change is in, for people and for policy.
enum class Category : std::uint8_t {
  WorkTree,
  Index,
  Config,
  Hook,
  Ref,     // refs/…, packed-refs, HEAD and the semantic ref changes
  Reflog,  // logs/…
  Info,    // info/… and objects/info/… (alternates, attributes, exclude)
  GitOther,
};
std::string_view toString(Category c);

// What the check does about a change once a restore is due.
enum class Remedy : std::uint8_t {
  None,     // left as the step left it
  Undo,     // kept in the quarantine commit, then restored to the baseline
  PutBack,  // an earlier check's quarantine ref the step moved or deleted: pointed back
};

// The category of a path inside the git directory.
Category categorizeGitPath(std::string_view rel);

struct Change {
  ChangeKind kind = ChangeKind::Modified;
  Category category = Category::WorkTree;
  Area area = Area::WorkTree;
  std::string path;         // relative to the area root; the ref name for ref changes
  std::string given;        // the path as the caller named it (through --repo as given)
  std::string resolved;     // absolute real path (empty for semantic ref changes)
  bool isDir = false;       // the entry is (or was) a directory
  std::string linkTarget;   // the entry is now a symlink to this
  std::string detail;       // "old -> new" for refs and symlink targets
  bool restorable = true;   // the baseline holds what a restore needs
  bool dependency = false;  // a dependency manifest or lock file
  // Not a change of state: the index's stat cache refreshed (`git status`
  // does that). Never a violation; restored along with real changes.
  bool benign = false;
  std::optional<ErrorCode> violation;
  std::string reason;  // why it is a violation
  Remedy remedy = Remedy::None;
  bool restored = false;
};

}  // namespace lw::verify
