#include "verify/baseline/baseline.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <span>

#include "verify/baseline/content_store.h"
#include "verify/baseline/watched_paths.h"
#include "verify/git/libgit2.h"

namespace lw::verify {
namespace {

namespace fs = std::filesystem;

enum Tag : std::uint8_t { kPlain = 0, kIgnoredDir = 1 };

std::string realPath(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::canonical(p, ec);
  std::string s = ec ? p : r.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool isInside(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

std::int64_t indexNs(const git_index_time& t) {
  return static_cast<std::int64_t>(t.seconds) * 1000000000 + t.nanoseconds;
}

// git's stat cache test (read-cache.c ie_match_stat), strict: every field.
bool statMatchesIndex(const git_index_entry& e, const FsStat& st, std::int64_t indexMtimeNs) {
  if (st.type != FileType::File) return false;
  std::uint32_t mode = (st.perm & 0100) != 0 ? 0100755 : 0100644;
  if (e.mode != mode || e.file_size != static_cast<std::uint32_t>(st.size)) return false;
  if (indexNs(e.mtime) != st.mtimeNs || indexNs(e.ctime) != st.ctimeNs) return false;
  if (e.ino != static_cast<std::uint32_t>(st.ino)) return false;
  if (GIT_INDEX_ENTRY_STAGE(&e) != 0) return false;
  if ((e.flags_extended & (GIT_INDEX_ENTRY_SKIP_WORKTREE | GIT_INDEX_ENTRY_INTENT_TO_ADD)) != 0) return false;
  // Racily clean: written in the same tick as the index, content unknown.
  return indexNs(e.mtime) < indexMtimeNs;
}

std::string defaultStorePath() {
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string templ = (dir / "loopwright-baseline-XXXXXX").string();
  int fd = mkstemp(templ.data());
  if (fd >= 0) close(fd);
  return templ;
}

// The index in path order, safe to read from several threads (libgit2's own
// lookups may sort lazily, which is not). A walk looks up every child of a
// directory in a row: the directory's slice is found once, and each child
// is a short binary search in memory the previous search just touched —
// cheaper than a hash table of 100k paths, which misses the cache on every
// lookup and costs a serial build before the walk can start.
class IndexTable {
 public:
  struct Item {
    std::string_view path;
    const git_index_entry* entry;
  };
  using Slice = std::span<const Item>;

  explicit IndexTable(git_index* index) {
    std::size_t n = git_index_entrycount(index);
    items_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const git_index_entry* e = git_index_get_byindex(index, i);
      items_.push_back({e->path, e});
    }
    // libgit2 orders a case-insensitive index case-insensitively; the
    // searches here compare bytes, so the table is put in byte order.
    auto byPath = [](const Item& a, const Item& b) { return a.path < b.path; };
    if (!std::is_sorted(items_.begin(), items_.end(), byPath)) std::stable_sort(items_.begin(), items_.end(), byPath);
  }

  Slice all() const { return items_; }

  // The entries of `in` below `dir` ("" for the root).
  static Slice under(Slice in, std::string_view dir) {
    if (dir.empty()) return in;
    std::string prefix(dir);
    prefix += '/';
    auto first = std::lower_bound(in.begin(), in.end(), prefix, pathLess);
    // '/' + 1 is '0': every path below `dir/` sorts before `dir0`.
    prefix.back() = '/' + 1;
    auto last = std::lower_bound(first, in.end(), prefix, pathLess);
    return in.subspan(static_cast<std::size_t>(first - in.begin()), static_cast<std::size_t>(last - first));
  }

  // The stage-0 entry at `path` in `slice`; `tracked` is set when any stage is there.
  static const git_index_entry* find(Slice slice, std::string_view path, bool& tracked) {
    auto it = std::lower_bound(slice.begin(), slice.end(), path, pathLess);
    tracked = false;
    const git_index_entry* stage0 = nullptr;
    for (; it != slice.end() && it->path == path; ++it) {
      tracked = true;
      if (GIT_INDEX_ENTRY_STAGE(it->entry) == 0) stage0 = it->entry;
    }
    return stage0;
  }

 private:
  static bool pathLess(const Item& item, std::string_view path) { return item.path < path; }

  std::vector<Item> items_;  // the paths' lengths taken once, not at every comparison
};

class Taker {
 public:
  Taker(Baseline& b, git_repository* repo, git_index* index, ContentStore& store)
      : b_(b), repo_(repo), table_(index), store_(store) {
    struct stat s {};
    std::string indexFile = std::string(git_repository_path(repo_)) + "index";
    if (stat(indexFile.c_str(), &s) == 0)
      indexMtimeNs_ = static_cast<std::int64_t>(s.st_mtim.tv_sec) * 1000000000 + s.st_mtim.tv_nsec;
  }

  Status walk(Area area, const std::string& root) {
    return walkTreeParallel(root, kPlain, b_.options.threads,
                            [&](int dirFd, const std::string& relDir, std::uint8_t tag,
                                std::vector<WalkChild>& children) { visitDir(area, dirFd, relDir, tag, children); });
  }

  Status status() {
    std::lock_guard lock(mu_);
    return status_;
  }

 private:
  void visitDir(Area area, int dirFd, const std::string& relDir, std::uint8_t tag, std::vector<WalkChild>& children) {
    std::vector<BaselineEntry> group;
    group.reserve(children.size());
    // Everything tracked below this directory: where its children are looked up.
    IndexTable::Slice trackedBelow;
    if (area == Area::WorkTree && tag != kIgnoredDir) trackedBelow = IndexTable::under(table_.all(), relDir);
    // In name order, so that the group needs no sorting of its (large) entries.
    std::vector<WalkChild*> byName;
    byName.reserve(children.size());
    for (WalkChild& c : children) byName.push_back(&c);
    std::sort(byName.begin(), byName.end(), [](const WalkChild* x, const WalkChild* y) { return x->name < y->name; });
    std::string rel;
    for (WalkChild* child : byName) {
      WalkChild& c = *child;
      rel = relDir.empty() ? c.name : relDir + "/" + c.name;
      Watch watch = watchOf(b_, area, rel, c.st.type);
      if (watch == Watch::Skip) {
        c.tag = kSkipDir;
        continue;
      }
      if (area == Area::WorkTree && rel != ".git") {
        c.tag = visitWorkTree(group, rel, c, dirFd, tag, trackedBelow);
        continue;
      }
      // The git directory's files, and a .git file (a linked worktree's, a
      // submodule's) or symlink that says where the git directory is.
      BaselineEntry e = entry(area, Origin::Git, rel, c.st);
      if (c.st.type == FileType::File && watch == Watch::Capture) captureAlways(e, dirFd, c.name.c_str());
      group.push_back(std::move(e));
      c.tag = kPlain;
    }
    std::lock_guard lock(mu_);
    for (BaselineEntry& e : group) b_.entries.push_back(std::move(e));
  }

  std::uint8_t visitWorkTree(std::vector<BaselineEntry>& group, const std::string& rel, const WalkChild& c, int dirFd,
                             std::uint8_t tag, IndexTable::Slice trackedHere) {
    const FsStat& st = c.st;
    Origin origin = Origin::Untracked;
    const git_index_entry* ie = nullptr;
    if (tag == kIgnoredDir) {
      origin = Origin::Ignored;
    } else if (st.type == FileType::Dir) {
      bool tracked = false;
      ie = IndexTable::find(trackedHere, rel, tracked);  // a gitlink (submodule) is an entry
      if (tracked || !IndexTable::under(trackedHere, rel).empty()) {
        origin = Origin::Tracked;
      } else if (isIgnored(rel)) {
        origin = Origin::Ignored;
      }
    } else {
      bool tracked = false;
      ie = IndexTable::find(trackedHere, rel, tracked);
      if (tracked) {
        origin = Origin::Tracked;
      } else if (isIgnored(rel)) {
        origin = Origin::Ignored;
      }
    }
    BaselineEntry e = entry(Area::WorkTree, origin, rel, st);
    if (st.type == FileType::File) {
      if (ie != nullptr && !e.racy && statMatchesIndex(*ie, st, indexMtimeNs_)) {
        e.source = ContentSource::Blob;
        e.blobId = oidHex(ie->id);
      } else if (origin == Origin::Ignored) {
        captureIgnored(e, dirFd, c.name.c_str());
      } else {
        captureAlways(e, dirFd, c.name.c_str());
      }
    } else if (st.type == FileType::Other) {
      countNotRestorable();
    }
    group.push_back(std::move(e));
    if (st.type != FileType::Dir) return kPlain;
    // A gitlink (submodule) is another repository: its files are budgeted
    // like ignored ones rather than captured unconditionally.
    if (origin == Origin::Ignored) return kIgnoredDir;
    return ie != nullptr && ie->mode == GIT_FILEMODE_COMMIT ? kIgnoredDir : kPlain;
  }

  bool isIgnored(const std::string& rel) {
    // libgit2's attribute cache is not safe to share between threads.
    std::lock_guard lock(ignoreMu_);
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, repo_, rel.c_str()) != 0) return false;
    return ignored != 0;
  }

  BaselineEntry entry(Area area, Origin origin, const std::string& rel, const FsStat& st) {
    BaselineEntry e;
    e.area = area;
    e.origin = origin;
    e.path = rel;
    e.stat = st;
    e.racy = st.type != FileType::Dir && st.ctimeNs >= b_.takenAtNs - b_.options.racyWindowNs;
    return e;
  }

  void countNotRestorable() {
    std::lock_guard lock(mu_);
    ++b_.notRestorable;
  }

  void captureAlways(BaselineEntry& e, int dirFd, const char* name) {
    if (e.stat.size > b_.options.maxFileBytes) return countNotRestorable();
    capture(e, dirFd, name);
  }

  void captureIgnored(BaselineEntry& e, int dirFd, const char* name) {
    {
      std::lock_guard lock(mu_);
      if (e.stat.size > b_.options.maxFileBytes || b_.ignoredCapturedFiles + 1 > b_.options.ignoredBudgetFiles ||
          b_.ignoredCapturedBytes + e.stat.size > b_.options.ignoredBudgetBytes) {
        ++b_.notRestorable;
        return;
      }
      // Reserve before reading so that parallel captures respect the budget.
      ++b_.ignoredCapturedFiles;
      b_.ignoredCapturedBytes += e.stat.size;
    }
    capture(e, dirFd, name);
  }

  bool capture(BaselineEntry& e, int dirFd, const char* name) {
    auto bytes = readFileAt(dirFd, name, e.stat.size);
    if (!bytes) {
      fail(bytes.error());
      return false;
    }
    Result<StoreSpan> span = StoreSpan{};
    {
      std::lock_guard lock(storeMu_);
      span = store_.append(*bytes);
    }
    if (!span) {
      fail(span.error());
      return false;
    }
    e.source = ContentSource::Store;
    e.storeOffset = span->offset;
    e.storeSize = span->size;
    // The size we read is the truth; a file growing during the walk is racy.
    if (span->size != e.stat.size) e.racy = true;
    return true;
  }

  void fail(Error e) {
    std::lock_guard lock(mu_);
    if (status_.ok()) status_ = std::move(e);
  }

  Baseline& b_;
  git_repository* repo_;
  IndexTable table_;
  ContentStore& store_;
  std::int64_t indexMtimeNs_ = 0;
  std::mutex mu_, ignoreMu_, storeMu_;
  Status status_ = Ok{};
};

}  // namespace

std::string_view toString(Area a) {
  switch (a) {
    case Area::WorkTree: return "worktree";
    case Area::GitDir: return "git";
    case Area::HooksPath: return "hooks-path";
  }
  return "worktree";
}

const std::string& Baseline::rootOf(Area a) const {
  switch (a) {
    case Area::WorkTree: return workTree;
    case Area::GitDir: return gitDir;
    case Area::HooksPath: return hooksPath;
  }
  return workTree;
}

std::string_view nameOf(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view parentOf(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

namespace {
std::string groupKey(Area area, std::string_view dir) {
  std::string key(1, static_cast<char>('0' + static_cast<int>(area)));
  key.append(dir);
  return key;
}
}  // namespace

std::span<const BaselineEntry> Baseline::childrenOf(Area area, std::string_view dir) const {
  auto it = groups_.find(groupKey(area, dir));
  if (it == groups_.end()) return {};
  return {entries.data() + it->second.begin, it->second.count};
}

const BaselineEntry* Baseline::find(Area area, std::string_view path) const {
  auto group = childrenOf(area, parentOf(path));
  std::string_view name = nameOf(path);
  auto it = std::lower_bound(group.begin(), group.end(), name,
                             [](const BaselineEntry& e, std::string_view n) { return nameOf(e.path) < n; });
  return it != group.end() && nameOf(it->path) == name ? &*it : nullptr;
}

bool Baseline::reindex() {
  groups_.clear();
  std::size_t i = 0;
  while (i < entries.size()) {
    Area area = entries[i].area;
    std::string_view dir = parentOf(entries[i].path);
    std::size_t j = i + 1;
    while (j < entries.size() && entries[j].area == area && parentOf(entries[j].path) == dir) {
      if (!(nameOf(entries[j - 1].path) < nameOf(entries[j].path))) return false;
      ++j;
    }
    if (!groups_.emplace(groupKey(area, dir), Group{i, j - i}).second) return false;
    i = j;
  }
  return true;
}

Result<std::vector<RefState>> readRefs(const std::string& repoDir) {
  auto repo = openRepository(repoDir);
  if (!repo) return repo.error();
  std::vector<RefState> refs;
  auto describe = [](git_reference* r) -> std::string {
    if (git_reference_type(r) == GIT_REFERENCE_SYMBOLIC) return std::string("ref: ") + git_reference_symbolic_target(r);
    const git_oid* id = git_reference_target(r);
    return id != nullptr ? oidHex(*id) : "";
  };
  git_reference* head = nullptr;
  if (git_reference_lookup(&head, repo->get(), "HEAD") == 0) {
    GitPtr<git_reference> owned(head);
    refs.push_back({"HEAD", describe(head)});
  } else {
    refs.push_back({"HEAD", "(unreadable)"});
  }
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_new(&it, repo->get()) != 0)
    return gitError(ErrorCode::IoError, "cannot list refs", repoDir);
  GitPtr<git_reference_iterator> ownedIt(it);
  git_reference* ref = nullptr;
  int rc = 0;
  while ((rc = git_reference_next(&ref, it)) == 0) {
    GitPtr<git_reference> owned(ref);
    refs.push_back({git_reference_name(ref), describe(ref)});
  }
  if (rc != GIT_ITEROVER) return gitError(ErrorCode::IoError, "cannot list refs", repoDir);
  std::sort(refs.begin() + 1, refs.end(), [](const RefState& a, const RefState& b) { return a.name < b.name; });
  return refs;
}

namespace {

// core.hooksPath, when set: inside the work tree it is watched there (and
// its files are hooks); outside both roots it is an area of its own.
void readHooksPath(git_repository* repo, Baseline& b) {
  git_config* cfg = nullptr;
  if (git_repository_config_snapshot(&cfg, repo) != 0) return;
  GitPtr<git_config> owned(cfg);
  git_buf buf = GIT_BUF_INIT;
  if (git_config_get_path(&buf, cfg, "core.hooksPath") != 0) return;
  std::string hp = buf.ptr;
  git_buf_dispose(&buf);
  if (!hp.empty() && hp[0] != '/') hp = b.workTree + "/" + hp;
  hp = realPath(hp);
  if (isInside(hp, b.workTree) && hp != b.workTree) {
    b.hooksPathInWorkTree = hp.substr(b.workTree.size() + 1);
  } else if (!isInside(hp, b.gitDir) && !isInside(hp, b.workTree)) {
    b.hooksPath = hp;
  }
}

// The store holds what a restore writes back: inside a watched area a step
// could change it, and the check would report its own writes as the step's.
Status refuseStoreInside(const Baseline& b) {
  fs::path store(b.storePath);
  std::string real =
      realPath(store.has_parent_path() ? store.parent_path().string() : ".") + "/" + store.filename().string();
  for (const std::string* root : {&b.workTree, &b.gitDir, &b.hooksPath})
    if (!root->empty() && isInside(real, *root))
      return makeError(ErrorCode::UsageError,
                       "the baseline store '" + real + "' is inside the repository ('" + *root + "')",
                       "keep the baseline and its store outside the work tree and the git directory "
                       "(docs/verification.md)",
                       b.storePath);
  return Ok{};
}

Result<GitPtr<git_index>> openIndex(git_repository* repo, const Baseline& b) {
  git_index* rawIndex = nullptr;
  if (git_repository_index(&rawIndex, repo) != 0) {
    Error e = gitError(ErrorCode::IoError, "cannot read the index", b.repoPath + "/index");
    e.hint = indexReadHint(e.message);
    return e;
  }
  return GitPtr<git_index>(rawIndex);
}

// Walks every watched area into `b.entries`, capturing content to `store`.
Status walkAreas(Baseline& b, git_repository* repo, git_index* index, ContentStore& store) {
  Taker taker(b, repo, index, store);
  for (auto st : {taker.walk(Area::GitDir, b.gitDir), taker.walk(Area::WorkTree, b.workTree)})
    if (!st) return st;
  struct stat s {};
  if (!b.hooksPath.empty() && stat(b.hooksPath.c_str(), &s) == 0 && S_ISDIR(s.st_mode))
    if (auto st = taker.walk(Area::HooksPath, b.hooksPath); !st) return st;
  if (auto st = taker.status(); !st) return st;
  return store.flush();
}

}  // namespace

Result<Baseline> takeBaseline(const std::string& repoDir, const BaselineOptions& options) {
  auto repo = openRepository(repoDir);
  if (!repo) return repo.error();
  Baseline b;
  b.repoDir = repoDir;
  b.options = options;
  const char* wd = git_repository_workdir(repo->get());
  b.workTree = realPath(wd != nullptr ? wd : repoDir);
  b.gitDir = realPath(git_repository_commondir(repo->get()));
  b.repoPath = realPath(git_repository_path(repo->get()));
  if (!isInside(b.repoPath, b.gitDir))
    return makeError(ErrorCode::IoError,
                     "the git directory '" + b.repoPath + "' is outside the common directory '" + b.gitDir + "'",
                     "verification watches the common git directory; use a standard layout", repoDir);
  readHooksPath(repo->get(), b);
  b.storePath = options.storePath.empty() ? defaultStorePath() : options.storePath;
  if (auto st = refuseStoreInside(b); !st) {
    if (options.storePath.empty()) ::unlink(b.storePath.c_str());
    return st.error();
  }
  // Before anything is read: what a running gc rewrites is not the step's.
  auto waits = waitForGitMaintenance(b.gitDir, options.maintenanceTimeout);
  if (!waits) return waits.error();
  b.maintenanceWaits = std::move(*waits);
  b.takenAtNs = realtimeNs();
  b.indexFile = b.repoPath == b.gitDir ? "index" : b.repoPath.substr(b.gitDir.size() + 1) + "/index";
  auto refs = readRefs(repoDir);
  if (!refs) return refs.error();
  b.refs = std::move(*refs);
  auto index = openIndex(repo->get(), b);
  if (!index) return index.error();
  auto store = ContentStore::create(b.storePath);
  if (!store) return store.error();
  if (auto st = walkAreas(b, repo->get(), index->get(), *store); !st) return st.error();
  if (!b.reindex()) return makeError(ErrorCode::Internal, "baseline entries are not grouped by directory");
  return b;
}

}  // namespace lw::verify
