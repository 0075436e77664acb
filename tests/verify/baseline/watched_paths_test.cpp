#include <doctest/doctest.h>

#include "verify/baseline/watched_paths.h"

using namespace lw::verify;

TEST_CASE("verify watch: every file of a git directory is walked but the loose objects") {
  Baseline b;
  b.workTree = "/w";
  b.gitDir = "/w/.git";
  struct Row {
    Area area;
    const char* rel;
    FileType type;
    Watch watch;
  };
  const Row rows[] = {
      {Area::GitDir, "config", FileType::File, Watch::Capture},
      {Area::GitDir, "FETCH_HEAD", FileType::File, Watch::Capture},
      {Area::GitDir, "modules/sub/config", FileType::File, Watch::Capture},
      {Area::GitDir, "worktrees/x/config", FileType::File, Watch::Capture},
      {Area::GitDir, "objects", FileType::Dir, Watch::Capture},
      {Area::GitDir, "objects/ab", FileType::Dir, Watch::Skip},
      {Area::GitDir, "objects/Ab", FileType::File, Watch::Skip},
      {Area::GitDir, "modules/a/b/objects/0f", FileType::Dir, Watch::Skip},
      {Area::GitDir, "objects/info/alternates", FileType::File, Watch::Capture},
      {Area::GitDir, "objects/pack/pack-1.pack", FileType::File, Watch::StatOnly},
      {Area::GitDir, "modules/sub/objects/pack/pack-1.idx", FileType::File, Watch::StatOnly},
      {Area::GitDir, "objects/incoming", FileType::Dir, Watch::Capture},
      {Area::GitDir, "objects/abc", FileType::Dir, Watch::Capture},
      {Area::GitDir, "refs/heads/objects/ab", FileType::File, Watch::Capture},
      {Area::GitDir, "lw-store", FileType::File, Watch::Capture},
      {Area::GitDir, "lfs/objects/ab/cd/abcd", FileType::File, Watch::StatOnly},
      // A submodule's git directory is modules/<name>/ (a name may hold '/'),
      // up to the first entry git keeps in a git directory.
      {Area::GitDir, "modules/sub/refs/heads/objects/ab", FileType::File, Watch::Capture},
      {Area::GitDir, "modules/sub/logs/refs/heads/objects/ab", FileType::File, Watch::Capture},
      {Area::GitDir, "modules/sub/lfs/objects/ab/cd/abcd", FileType::File, Watch::StatOnly},
      {Area::GitDir, "modules/a/modules/b/objects/0f", FileType::Dir, Watch::Skip},
      {Area::GitDir, "modules/a/modules/b/refs/heads/objects/0f", FileType::File, Watch::Capture},
      {Area::GitDir, "modules/objects/objects/0f", FileType::Dir, Watch::Skip},
      {Area::GitDir, "modules/objects/0f/config", FileType::File, Watch::Capture},
      {Area::GitDir, "modules/a/objects", FileType::Dir, Watch::Capture},
      {Area::WorkTree, ".git", FileType::Dir, Watch::Skip},
      {Area::WorkTree, ".git", FileType::File, Watch::Capture},
      {Area::WorkTree, "sub/.git", FileType::Dir, Watch::Capture},
      {Area::WorkTree, "objects/ab", FileType::Dir, Watch::Capture},
  };
  for (const Row& r : rows) {
    CAPTURE(std::string(r.rel));
    CHECK(watchOf(b, r.area, r.rel, r.type) == r.watch);
  }
  // A .git directory that is not the repository's (core.worktree elsewhere) is walked.
  b.gitDir = "/elsewhere/repo.git";
  CHECK(watchOf(b, Area::WorkTree, ".git", FileType::Dir) == Watch::Capture);
}

TEST_CASE("verify watch: a change anywhere in git's state, or inside any .git, is git state") {
  CHECK(touchesGitState(Area::GitDir, "description"));
  CHECK(touchesGitState(Area::GitDir, "refs/heads/main"));
  CHECK(touchesGitState(Area::HooksPath, "pre-commit"));
  CHECK(touchesGitState(Area::WorkTree, "sub/.git"));
  CHECK_FALSE(touchesGitState(Area::WorkTree, "src/.gitignore"));
}

TEST_CASE("verify watch: the path inside a nested .git is what git would read there") {
  CHECK(pathInGitDir("sub/.git") == std::optional<std::string_view>(""));
  CHECK(pathInGitDir("dir/nested/.git/hooks/x") == std::optional<std::string_view>("hooks/x"));
  CHECK(pathInGitDir(".GIT/config") == std::optional<std::string_view>("config"));
  CHECK_FALSE(pathInGitDir("dir/.gitmodules").has_value());
}

TEST_CASE("verify watch: each changed path's category, for people and for policy") {
  Baseline b;
  b.hooksPathInWorkTree = "tools/hooks";
  struct Row {
    Area area;
    const char* rel;
    Category category;
  };
  const Row rows[] = {
      {Area::GitDir, "config", Category::Config},
      {Area::GitDir, "refs/heads/main", Category::Ref},
      {Area::GitDir, "worktrees/wt/index", Category::Index},
      {Area::HooksPath, "pre-commit", Category::Hook},
      {Area::WorkTree, "src/a.c", Category::WorkTree},
      {Area::WorkTree, "sub/.git", Category::Config},
      {Area::WorkTree, "dir/nested/.git/hooks/pre-push", Category::Hook},
      {Area::WorkTree, "dir/nested/.git/HEAD", Category::Ref},
      {Area::WorkTree, "tools/hooks", Category::Hook},
      {Area::WorkTree, "tools/hooks/pre-commit", Category::Hook},
      {Area::WorkTree, "tools/hooksmith", Category::WorkTree},
  };
  for (const Row& r : rows) {
    CAPTURE(std::string(r.rel));
    CHECK(categoryOf(b, r.area, r.rel) == r.category);
  }
}
