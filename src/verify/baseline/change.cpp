#include "verify/baseline/change.h"

namespace lw::verify {

std::string_view toString(ChangeKind k) {
  switch (k) {
    case ChangeKind::Added: return "added";
    case ChangeKind::Modified: return "modified";
    case ChangeKind::Deleted: return "deleted";
    case ChangeKind::Mode: return "mode";
    case ChangeKind::Symlink: return "symlink";
    case ChangeKind::TypeChanged: return "type";
    case ChangeKind::RefAdded: return "ref-added";
    case ChangeKind::RefDeleted: return "ref-deleted";
    case ChangeKind::RefMoved: return "ref-moved";
    case ChangeKind::Head: return "head";
  }
  return "modified";
}

std::string_view toString(Category c) {
  switch (c) {
    case Category::WorkTree: return "worktree";
    case Category::Index: return "index";
    case Category::Config: return "config";
    case Category::Hook: return "hook";
    case Category::Ref: return "ref";
    case Category::Reflog: return "reflog";
    case Category::Info: return "info";
    case Category::GitOther: return "git";
  }
  return "git";
}

Category categorizeGitPath(std::string_view rel) {
  // A linked worktree keeps its own HEAD, index, logs and config.worktree
  // under worktrees/<name>/, and two files that say where its work tree and
  // common directory are: redirecting those redirects the repository.
  if (rel.starts_with("worktrees/")) {
    std::string_view rest = rel.substr(10);
    auto slash = rest.find('/');
    if (slash != std::string_view::npos) {
      rest = rest.substr(slash + 1);
      if (rest == "gitdir" || rest == "commondir") return Category::Config;
      if (rest == "ORIG_HEAD" || rest == "FETCH_HEAD" || rest == "MERGE_HEAD" || rest == "HEAD" || rest == "index" ||
          rest == "config.worktree" || rest.starts_with("logs/") || rest.starts_with("refs/"))
        return categorizeGitPath(rest);
    }
    return Category::GitOther;
  }
  auto under = [&](std::string_view dir) {
    return rel == dir || (rel.size() > dir.size() && rel.starts_with(dir) && rel[dir.size()] == '/');
  };
  if (rel == "config" || rel == "config.worktree") return Category::Config;
  if (under("hooks")) return Category::Hook;
  if (rel == "index" || rel == "sharedindex" || rel.starts_with("sharedindex.")) return Category::Index;
  if (under("refs") || rel == "packed-refs" || rel == "HEAD" || rel == "ORIG_HEAD" || rel == "FETCH_HEAD" ||
      rel == "MERGE_HEAD")
    return Category::Ref;
  if (under("logs")) return Category::Reflog;
  if (under("info") || under("objects/info") || rel == "objects") return Category::Info;
  return Category::GitOther;
}

}  // namespace lw::verify
