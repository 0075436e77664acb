#include "verify/baseline/watched_paths.h"

#include <cctype>
#include <string>

#include "core/hex.h"

namespace lw::verify {
namespace {

bool isHex2(std::string_view s) { return s.size() == 2 && isHex(s); }

bool equalsFolded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// What git keeps directly in a git directory. A submodule's git directory,
// modules/<name>/, ends where the first of these begins: its name may hold
// '/' but, where it holds one of these, what follows is still captured.
bool isGitDirEntry(std::string_view part) {
  for (std::string_view e : {"objects", "refs", "logs", "hooks", "info", "lfs", "worktrees", "modules"})
    if (part == e) return true;
  return false;
}

// `rel` (relative to the common git directory) as a path in the git
// directory that holds it: the common one, or a submodule's (nested ones
// included). "modules/a/b/objects/0f" -> "objects/0f".
std::string_view inOwnGitDir(std::string_view rel) {
  while (rel.starts_with("modules/")) {
    std::size_t slash = rel.find('/', 8);  // past the name's first component
    while (slash != std::string_view::npos) {
      std::size_t next = rel.find('/', slash + 1);
      if (next != std::string_view::npos && isGitDirEntry(rel.substr(slash + 1, next - slash - 1))) break;
      slash = next;
    }
    if (slash == std::string_view::npos) return rel;  // a file of the submodule's git directory
    rel = rel.substr(slash + 1);
  }
  return rel;
}

}  // namespace

Watch watchOf(const Baseline& b, Area area, std::string_view rel, FileType type) {
  if (area == Area::WorkTree) {
    // The repository's own git directory is an area of its own; any other
    // .git (a gitfile, a nested repository's, one that the step made) is
    // walked like the rest of the tree and refused by the policy.
    if (rel == ".git" && type == FileType::Dir && b.workTree + "/.git" == b.gitDir) return Watch::Skip;
    return Watch::Capture;
  }
  if (area != Area::GitDir) return Watch::Capture;
  std::string_view own = inOwnGitDir(rel);
  // Git LFS keeps its content-addressed files here, often large: detected,
  // not copied.
  if (own.starts_with("lfs/")) return Watch::StatOnly;
  if (!own.starts_with("objects/")) return Watch::Capture;
  std::string_view inObjects = own.substr(8);
  // Loose objects are content-addressed and named by their hash: a new one
  // changes nothing git reads as state until a ref, the index or alternates
  // (all watched) names it; loopwright writes its own quarantine commits
  // there, and a walk of a large object store would cost more than the tree.
  if (isHex2(inObjects.substr(0, inObjects.find('/')))) return Watch::Skip;
  // Packs are written whole and never edited; they can be large.
  if (inObjects.starts_with("pack/")) return Watch::StatOnly;
  return Watch::Capture;  // info/alternates among them: where objects come from
}

std::optional<std::string_view> pathInGitDir(std::string_view rel) {
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t slash = rel.find('/', start);
    std::string_view part = rel.substr(start, slash == std::string_view::npos ? rel.npos : slash - start);
    if (equalsFolded(part, ".git")) return slash == std::string_view::npos ? "" : rel.substr(slash + 1);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return std::nullopt;
}

Category categoryOf(const Baseline& b, Area area, std::string_view rel) {
  if (area == Area::GitDir) return categorizeGitPath(rel);
  if (area == Area::HooksPath) return Category::Hook;
  // A .git file or directory says where a repository is (this one's, a
  // submodule's, a nested one's); below it, paths mean what they mean in
  // any git directory.
  if (auto inGit = pathInGitDir(rel)) return inGit->empty() ? Category::Config : categorizeGitPath(*inGit);
  const std::string& hooks = b.hooksPathInWorkTree;
  if (!hooks.empty() && rel.starts_with(hooks) && (rel.size() == hooks.size() || rel[hooks.size()] == '/'))
    return Category::Hook;
  return Category::WorkTree;
}

bool isInsideGitDir(std::string_view rel) { return pathInGitDir(rel).has_value(); }

bool touchesGitState(Area area, std::string_view rel) { return area != Area::WorkTree || isInsideGitDir(rel); }

}  // namespace lw::verify
