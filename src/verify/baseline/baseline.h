// The state of a repository before a step: HEAD and every ref (loose, packed,
// the stash), every file of .git but the loose objects (index, config, hooks,
// info/, reflogs, packed-refs, modules/, worktrees/, packs; see
// watched_paths.h), the core.hooksPath target, and the working tree
// including untracked and ignored files. Content that a restore
// needs and that git does not already hold is copied to a ContentStore.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "verify/baseline/fs_walk.h"
#include "verify/git/git_maintenance.h"

namespace lw::verify {

// Which root an entry's path is relative to.
enum class Area : std::uint8_t {
  WorkTree,   // the working tree, without its .git
  GitDir,     // the (common) git directory, without loose objects
  HooksPath,  // core.hooksPath when it is outside both of the above
};
std::string_view toString(Area a);

enum class Origin : std::uint8_t { Tracked, Untracked, Ignored, Git };

// Where a baseline entry's bytes come from on restore.
enum class ContentSource : std::uint8_t {
  None,   // not captured (over the budget, or not a regular file): detect only
  Blob,   // the index blob (the file was stat-clean against the index)
  Store,  // copied to the ContentStore
};

struct BaselineEntry {
  Area area = Area::WorkTree;
  Origin origin = Origin::Tracked;
  ContentSource source = ContentSource::None;
  // Changed within the timestamp granularity of the baseline: a later write
  // might keep ctime, so the check compares its content whatever stat says.
  bool racy = false;
  std::string path;  // relative to the area root, '/'-separated
  FsStat stat;
  std::string blobId;             // ContentSource::Blob
  std::uint64_t storeOffset = 0;  // ContentSource::Store
  std::uint64_t storeSize = 0;
};

// A ref as the baseline saw it: "oid" or "ref: refs/heads/x" for symbolic ones.
struct RefState {
  std::string name;
  std::string target;
};

struct BaselineOptions {
  // Ignored files are captured (for restore) until either budget is spent;
  // later ones are detected but not restorable.
  std::uint64_t ignoredBudgetBytes = 256ull << 20;
  std::uint64_t ignoredBudgetFiles = 50000;
  // Untracked, dirty tracked and .git files larger than this are detected but
  // not restorable.
  std::uint64_t maxFileBytes = 64ull << 20;
  // A file changed this close to the baseline may be changed again without
  // its ctime moving (coarse clock): the check compares its content instead.
  std::int64_t racyWindowNs = 2'000'000'000;
  // Threads walking the tree (0: the hardware's, at most 8).
  unsigned threads = 0;
  // Where captured bytes go; must be outside the workspace. Empty: a new file
  // in the system temporary directory.
  std::string storePath;
  // How long to wait for git's own background gc to end before the walk.
  std::chrono::milliseconds maintenanceTimeout{60'000};
};

struct Baseline {
  std::string repoDir;   // as given
  std::string workTree;  // real path, no trailing '/'
  std::string gitDir;    // real path of the common git directory
  // Real path of the repository's own git directory: gitDir, or for a linked
  // worktree gitDir/worktrees/<name>. Opened after a step instead of finding
  // the repository from the work tree again, through a .git link the step
  // could have rewritten.
  std::string repoPath;
  std::string indexFile;            // the index, relative to gitDir ("index", "worktrees/<name>/index")
  std::string hooksPath;            // real path of core.hooksPath if outside workTree and gitDir
  std::string hooksPathInWorkTree;  // relative path when core.hooksPath is inside the work tree
  std::vector<RefState> refs;       // HEAD first, then by name
  // Grouped by directory (area and parent path), sorted by name within a
  // group; the groups themselves in no particular order.
  std::vector<BaselineEntry> entries;
  std::string storePath;
  std::int64_t takenAtNs = 0;
  BaselineOptions options;
  std::uint64_t ignoredCapturedBytes = 0;
  std::uint64_t ignoredCapturedFiles = 0;
  std::uint64_t notRestorable = 0;  // entries detected but without content
  // Git's background gc that the baseline waited for before its walk.
  std::vector<MaintenanceWait> maintenanceWaits;

  // The root directory of an area ("" when the area is not watched).
  const std::string& rootOf(Area a) const;
  // Looks an entry up; nullptr when the baseline has none at that path.
  const BaselineEntry* find(Area area, std::string_view path) const;
  // The entries directly inside directory `dir` ("" for the area root).
  std::span<const BaselineEntry> childrenOf(Area area, std::string_view dir) const;
  // Rebuilds the directory table from `entries`. False when they are not
  // grouped by directory and sorted by name within each group.
  bool reindex();

 private:
  struct Group {
    std::size_t begin = 0;
    std::size_t count = 0;
  };
  std::unordered_map<std::string, Group> groups_;
};

// The name part of an entry's path (after the last '/').
std::string_view nameOf(std::string_view path);
// The parent directory part ("" at the top).
std::string_view parentOf(std::string_view path);

// Takes a baseline of the repository whose working tree is `repoDir`, after
// git's own background gc there has ended. Fails with IO_ERROR when it is not
// a git working tree, something is unreadable, or a gc still runs after
// options.maintenanceTimeout.
Result<Baseline> takeBaseline(const std::string& repoDir, const BaselineOptions& options = {});

// Refs as libgit2 sees them now (HEAD first); used by baseline and check.
Result<std::vector<RefState>> readRefs(const std::string& repoDir);

}  // namespace lw::verify
