#include "verify/baseline/diff.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <span>

#include "verify/baseline/content_store.h"
#include "verify/baseline/watched_paths.h"
#include "verify/git/libgit2.h"

namespace lw::verify {
namespace {

class Differ {
 public:
  Differ(const Baseline& b, ContentStore* store, git_repository* repo)
      : b_(b), store_(store), repo_(repo), seen_(b.entries.size(), 0) {}

  Status walkArea(Area area) {
    const std::string& root = b_.rootOf(area);
    if (root.empty()) return Ok{};
    struct stat s {};
    if (lstat(root.c_str(), &s) != 0 || !S_ISDIR(s.st_mode)) {
      if (area == Area::HooksPath) return Ok{};  // everything below reported deleted
      return makeError(ErrorCode::IoError, "'" + root + "' is gone or not a directory",
                       "the repository was moved or replaced during the step", root);
    }
    return walkTreeParallel(root, 0, b_.options.threads,
                            [&](int dirFd, const std::string& relDir, std::uint8_t tag,
                                std::vector<WalkChild>& children) { visitDir(area, dirFd, relDir, tag, children); });
  }

  void collectDeleted() {
    for (std::size_t i = 0; i < b_.entries.size(); ++i) {
      if (seen_[i] != 0) continue;
      const BaselineEntry& e = b_.entries[i];
      Change c = make(e.area, e.path, ChangeKind::Deleted);
      c.isDir = e.stat.type == FileType::Dir;
      c.restorable =
          e.stat.type == FileType::Dir || e.stat.type == FileType::Symlink || e.source != ContentSource::None;
      changes_.push_back(std::move(c));
    }
  }

  std::vector<Change> take() { return std::move(changes_); }

  void visitDir(Area area, int dirFd, const std::string& relDir, std::uint8_t /*tag*/,
                std::vector<WalkChild>& children) {
    std::span<const BaselineEntry> group = b_.childrenOf(area, relDir);
    std::vector<Change> local;
    std::string rel;
    for (WalkChild& c : children) {
      rel = relDir.empty() ? c.name : relDir + "/" + c.name;
      auto it = std::lower_bound(group.begin(), group.end(), std::string_view(c.name),
                                 [](const BaselineEntry& e, std::string_view n) { return nameOf(e.path) < n; });
      const BaselineEntry* base = it != group.end() && nameOf(it->path) == c.name ? &*it : nullptr;
      c.tag = 0;
      if (watchOf(b_, area, rel, c.st.type) == Watch::Skip) {
        // Not walked into. What the baseline has at this path is compared
        // all the same: a .git file that became a directory is a change.
        c.tag = kSkipDir;
        if (base == nullptr) continue;
      }
      visit(area, rel, c.st, dirFd, c.name.c_str(), base, local);
    }
    if (local.empty()) return;
    std::lock_guard lock(mu_);
    for (Change& ch : local) changes_.push_back(std::move(ch));
  }
  std::vector<std::string>& notes() { return notes_; }

 private:
  void visit(Area area, const std::string& rel, const FsStat& st, int dirFd, const char* name,
             const BaselineEntry* base, std::vector<Change>& out) {
    if (base == nullptr) {
      out.push_back(added(area, rel, st));
      return;
    }
    seen_[static_cast<std::size_t>(base - b_.entries.data())] = 1;
    std::optional<Change> c = base->stat.type != st.type  ? typeChanged(area, rel, *base, st)
                              : st.type == FileType::File ? fileChanged(area, rel, *base, st, dirFd, name)
                                                          : otherChanged(area, rel, base->stat, st);
    if (c) out.push_back(std::move(*c));
  }

  Change added(Area area, const std::string& rel, const FsStat& st) const {
    Change c = make(area, rel, ChangeKind::Added);
    c.isDir = st.type == FileType::Dir;
    c.linkTarget = st.linkTarget;
    if (st.type == FileType::Symlink) c.detail = "-> " + st.linkTarget;
    return c;
  }

  Change typeChanged(Area area, const std::string& rel, const BaselineEntry& base, const FsStat& st) const {
    const FsStat& was = base.stat;
    bool link = was.type == FileType::Symlink || st.type == FileType::Symlink;
    Change c = make(area, rel, link ? ChangeKind::Symlink : ChangeKind::TypeChanged);
    c.detail = std::string(toString(was.type)) + " -> " + std::string(toString(st.type));
    c.restorable = base.source != ContentSource::None || was.type != FileType::File;
    c.isDir = was.type == FileType::Dir || st.type == FileType::Dir;
    c.linkTarget = st.linkTarget;
    return c;
  }

  // A symlink, directory or other file of the same type as in the baseline.
  std::optional<Change> otherChanged(Area area, const std::string& rel, const FsStat& was, const FsStat& st) const {
    if (st.type == FileType::Symlink && was.linkTarget != st.linkTarget) {
      Change c = make(area, rel, ChangeKind::Symlink);
      c.detail = was.linkTarget + " -> " + st.linkTarget;
      c.linkTarget = st.linkTarget;
      return c;
    }
    if (st.type == FileType::Dir && was.perm != st.perm) {
      Change c = make(area, rel, ChangeKind::Mode);
      c.isDir = true;
      return c;
    }
    if (st.type == FileType::Other && (was.statDiffers(st) || was.perm != st.perm)) {
      Change c = make(area, rel, ChangeKind::Modified);
      c.restorable = false;
      return c;
    }
    return std::nullopt;
  }

  // A regular file: its content is compared only when its stat changed or
  // was taken too close to a write to be trusted (racy).
  std::optional<Change> fileChanged(Area area, const std::string& rel, const BaselineEntry& base, const FsStat& st,
                                    int dirFd, const char* name) {
    const FsStat& was = base.stat;
    bool changed = false;
    if (was.statDiffers(st) || base.racy) {
      if (was.size != st.size) {
        changed = true;
      } else if (base.source == ContentSource::None) {
        changed = was.statDiffers(st);
      } else {
        changed = !sameContent(base, dirFd, name);
      }
    }
    if (changed) {
      Change c = make(area, rel, ChangeKind::Modified);
      c.restorable = base.source != ContentSource::None;
      if (area == Area::GitDir && rel == b_.indexFile && sameIndex(base)) {
        c.benign = true;
        c.detail = "stat cache refreshed only";
      }
      return c;
    }
    if (was.perm != st.perm) return make(area, rel, ChangeKind::Mode);
    return std::nullopt;
  }

  Result<std::string> baselineBytes(const BaselineEntry& e) {
    // The store and the repository handle are shared by the walk's threads.
    std::lock_guard lock(readMu_);
    if (e.source == ContentSource::Store) {
      if (store_ == nullptr) return makeError(ErrorCode::IoError, "baseline store unavailable");
      return store_->read({e.storeOffset, e.storeSize});
    }
    if (repo_ == nullptr) return makeError(ErrorCode::IoError, "repository unreadable");
    return blobAsWorkTree(repo_, e.blobId, e.path);
  }

  bool sameContent(const BaselineEntry& e, int dirFd, const char* name) {
    auto now = readFileAt(dirFd, name, e.stat.size);
    auto was = baselineBytes(e);
    if (!was) {
      std::lock_guard lock(mu_);
      notes_.push_back(e.path + ": cannot read the baseline copy: " + was.error().message);
    }
    return now && was && *now == *was;
  }

  // `git status` rewrites the index to refresh its stat cache; only entries
  // (path, mode, id, stage and flags) are state a step could have changed.
  bool sameIndex(const BaselineEntry& e) {
    auto was = baselineBytes(e);
    if (!was) return false;
    std::string tmp = b_.storePath + ".index";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    bool written = ::write(fd, was->data(), was->size()) == static_cast<ssize_t>(was->size());
    ::close(fd);
    git_index* a = nullptr;
    git_index* c = nullptr;
    bool same = written && git_index_open(&a, tmp.c_str()) == 0 &&
                git_index_open(&c, (b_.gitDir + "/" + b_.indexFile).c_str()) == 0;
    GitPtr<git_index> oa(a), oc(c);
    ::unlink(tmp.c_str());
    if (!same || git_index_entrycount(a) != git_index_entrycount(c)) return false;
    for (std::size_t i = 0; i < git_index_entrycount(a); ++i) {
      const git_index_entry* x = git_index_get_byindex(a, i);
      const git_index_entry* y = git_index_get_byindex(c, i);
      constexpr std::uint16_t kExtMask = GIT_INDEX_ENTRY_INTENT_TO_ADD | GIT_INDEX_ENTRY_SKIP_WORKTREE;
      if (std::string_view(x->path) != y->path || x->mode != y->mode || git_oid_cmp(&x->id, &y->id) != 0 ||
          x->flags != y->flags || (x->flags_extended & kExtMask) != (y->flags_extended & kExtMask))
        return false;
    }
    return true;
  }

  Change make(Area area, const std::string& rel, ChangeKind kind) const {
    Change c;
    c.kind = kind;
    c.area = area;
    c.path = rel;
    c.resolved = b_.rootOf(area) + "/" + rel;
    c.given = area == Area::WorkTree ? b_.repoDir + "/" + rel : c.resolved;
    c.category = categoryOf(b_, area, rel);
    return c;
  }

  const Baseline& b_;
  ContentStore* store_;
  git_repository* repo_;
  std::vector<char> seen_;
  std::vector<Change> changes_;
  std::vector<std::string> notes_;
  std::mutex mu_, readMu_;
};

void diffRefs(const Baseline& b, const std::vector<RefState>& now, std::vector<Change>& out) {
  std::map<std::string, std::string> was, is;
  for (const RefState& r : b.refs) was[r.name] = r.target;
  for (const RefState& r : now) is[r.name] = r.target;
  auto make = [](ChangeKind k, const std::string& name, std::string detail) {
    Change c;
    c.kind = k;
    c.category = Category::Ref;
    c.area = Area::GitDir;
    c.path = name;
    c.detail = std::move(detail);
    return c;
  };
  for (const auto& [name, target] : was) {
    auto it = is.find(name);
    if (it == is.end()) {
      out.push_back(make(ChangeKind::RefDeleted, name, target + " -> (none)"));
    } else if (it->second != target) {
      out.push_back(make(name == "HEAD" ? ChangeKind::Head : ChangeKind::RefMoved, name, target + " -> " + it->second));
    }
  }
  for (const auto& [name, target] : is)
    if (!was.contains(name)) out.push_back(make(ChangeKind::RefAdded, name, "(none) -> " + target));
}

}  // namespace

Result<DiffResult> diffAgainstBaseline(const Baseline& b) {
  auto store = ContentStore::open(b.storePath);
  auto repo = openRepository(b.repoPath);
  DiffResult result;
  if (!store) result.notes.push_back("baseline store: " + store.error().message);
  if (!repo) result.notes.push_back("repository: " + repo.error().message);
  Differ d(b, store ? &*store : nullptr, repo ? repo->get() : nullptr);
  for (Area a : {Area::GitDir, Area::WorkTree, Area::HooksPath}) {
    auto st = d.walkArea(a);
    if (!st) return st.error();
  }
  d.collectDeleted();
  result.changes = d.take();
  for (std::string& n : d.notes()) result.notes.push_back(std::move(n));
  std::sort(result.changes.begin(), result.changes.end(),
            [](const Change& x, const Change& y) { return x.area != y.area ? x.area < y.area : x.path < y.path; });
  auto refs = readRefs(b.repoPath);
  if (refs) {
    diffRefs(b, *refs, result.changes);
    result.refs = std::move(refs).value();
  } else {
    result.notes.push_back("refs unreadable after the step: " + refs.error().message);
  }
  return result;
}

}  // namespace lw::verify
