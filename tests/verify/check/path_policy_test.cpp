#include <doctest/doctest.h>

#include "verify/baseline/change.h"
#include "verify/baseline/watched_paths.h"
#include "verify/check/path_policy.h"

using namespace lw::verify;

TEST_CASE("verify glob: '*' stays in a component, '**' spans any number") {
  struct Row {
    const char* glob;
    const char* path;
    bool match;
  };
  const Row rows[] = {
      {"src/**", "src/a/b.c", true},
      {"src/**", "src", true},
      {"src/**", "srcx/a", false},
      {"src/*.c", "src/a.c", true},
      {"src/*.c", "src/a/b.c", false},
      {"**/AGENTS.md", "AGENTS.md", true},
      {"**/AGENTS.md", "a/b/AGENTS.md", true},
      {"**/AGENTS.md", "a/xAGENTS.md", false},
      {"docs/**/*.md", "docs/x.md", true},
      {"docs/**/*.md", "docs/a/b/x.md", true},
      {"a?c", "abc", true},
      {"a?c", "a/c", false},
      {"", "", true},
      {"x", "", false},
  };
  for (const Row& r : rows) {
    std::string glob = r.glob, path = r.path;
    CAPTURE(glob);
    CAPTURE(path);
    CHECK(globMatch(r.glob, r.path) == r.match);
  }
}

TEST_CASE("verify path policy: protected paths, case-insensitively, always") {
  CHECK(isProtectedPath(".github/workflows/ci.yml", {}));
  CHECK(isProtectedPath(".GitHub/Workflows/ci.yml", {}));
  CHECK(isProtectedPath(".github", {}));
  CHECK(isProtectedPath(".loopwright/policies/x.yaml", {}));
  CHECK(isProtectedPath("CLAUDE.md", {}));
  CHECK(isProtectedPath("src/agents.md", {}));
  CHECK_FALSE(isProtectedPath(".loopwright/taskpack.yaml", {}));
  CHECK(isProtectedPath("secrets/x", {"secrets/**"}));
  CHECK(isProtectedPath("SECRETS/x", {"secrets/**"}));
}

TEST_CASE("verify path policy: writable scope is exact and empty means nothing") {
  CHECK(isWritablePath("src/a.c", {"src/**"}));
  CHECK_FALSE(isWritablePath("SRC/a.c", {"src/**"}));
  CHECK_FALSE(isWritablePath("src/a.c", {}));
}

TEST_CASE("verify path policy: dependency manifests and lock files by name") {
  for (const char* p : {"package.json",     "web/package-lock.json",
                        "requirements.txt", "requirements-dev.txt",
                        "pyproject.toml",   "go.mod",
                        "go.sum",           "Cargo.toml",
                        "Cargo.lock",       "pom.xml",
                        "build.gradle",     "app/build.gradle.kts",
                        "Gemfile",          "Gemfile.lock",
                        "composer.json",    "composer.lock",
                        "vcpkg.json",       "conanfile.txt",
                        "conanfile.py",     "yarn.lock",
                        "pnpm-lock.yaml"}) {
    CAPTURE(p);
    CHECK(dependencyKindOf(p) == DependencyKind::Manifest);
  }
  CHECK(dependencyKindOf("CMakeLists.txt") == DependencyKind::CMakeMaybe);
  CHECK(dependencyKindOf("src/main.cpp") == DependencyKind::None);
  CHECK(dependencyKindOf("package.json.bak") == DependencyKind::None);
}

TEST_CASE("verify path policy: normalizing relative paths") {
  bool escapes = false;
  CHECK(normalizeRelative("a/./b/../c", escapes) == "a/c");
  CHECK_FALSE(escapes);
  normalizeRelative("a/../../x", escapes);
  CHECK(escapes);
}

TEST_CASE("verify change: .git paths fall in their categories") {
  CHECK(categorizeGitPath("config") == Category::Config);
  CHECK(categorizeGitPath("hooks/pre-commit") == Category::Hook);
  CHECK(categorizeGitPath("index") == Category::Index);
  CHECK(categorizeGitPath("refs/heads/main") == Category::Ref);
  CHECK(categorizeGitPath("packed-refs") == Category::Ref);
  CHECK(categorizeGitPath("HEAD") == Category::Ref);
  CHECK(categorizeGitPath("logs/refs/stash") == Category::Reflog);
  CHECK(categorizeGitPath("info/attributes") == Category::Info);
  CHECK(categorizeGitPath("objects/info/alternates") == Category::Info);
  CHECK(categorizeGitPath("description") == Category::GitOther);
  CHECK(categorizeGitPath("hooksx") == Category::GitOther);
}

TEST_CASE("verify change: a linked worktree's own git paths fall in the same categories") {
  CHECK(categorizeGitPath("worktrees/wt/HEAD") == Category::Ref);
  CHECK(categorizeGitPath("worktrees/wt/index") == Category::Index);
  CHECK(categorizeGitPath("worktrees/wt/logs/HEAD") == Category::Reflog);
  CHECK(categorizeGitPath("worktrees/wt/config.worktree") == Category::Config);
  // Where its work tree and the common directory are: redirecting them is
  // redirecting the repository.
  CHECK(categorizeGitPath("worktrees/wt/gitdir") == Category::Config);
  CHECK(categorizeGitPath("worktrees/wt/commondir") == Category::Config);
  CHECK(categorizeGitPath("worktrees/wt/locked") == Category::GitOther);
  CHECK(categorizeGitPath("worktrees/wt/hooks/pre-commit") == Category::GitOther);
  CHECK(categorizeGitPath("worktrees/wt") == Category::GitOther);
}

TEST_CASE("verify scope: no writable glob reaches into a git directory") {
  const std::vector<std::string> everything = {"**", "*", ".git/**", "sub/**", "dir/**"};
  for (const char* rel : {".git", ".git/config", ".git/modules/sub/config", "sub/.git", "sub/.git/config",
                          "dir/nested/.git/hooks/pre-commit", ".GIT/config", "dir/.Git"}) {
    CAPTURE(std::string(rel));
    CHECK(isInsideGitDir(rel));
    CHECK_FALSE(isWritablePath(rel, everything));
  }
  // Names that merely start with ".git" are working tree files.
  for (const char* rel : {".gitignore", ".gitmodules", ".github/x", "dir/.gitattributes", "a.git/x", ".gitx"}) {
    CAPTURE(std::string(rel));
    CHECK_FALSE(isInsideGitDir(rel));
    CHECK(isWritablePath(rel, {"**"}));
  }
}
