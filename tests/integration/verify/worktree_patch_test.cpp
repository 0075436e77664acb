// The patch of an author's worktree (verify/patch/worktree_patch.h) on real git:
// what the step wrote to steer git (.gitattributes anywhere, .gitignore) does
// not change how the patch is made, while the checkout's own attributes and
// ignore rules still do; the patch applies byte for byte on a fresh clone;
// nothing is written under the checkout's .git. The git CLI plays the step.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/git/worktree.h"
#include "verify/patch/worktree_patch.h"

using namespace lw::verify;
using lw::test::TempRepo;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fixture's repository (its .gitignore ignores ignored/ and *.log) with
// a detached worktree of HEAD in the scratch directory, the step's.
struct Authored {
  TempRepo repo;
  std::string head;
  fs::path wt = fs::path(repo.scratch()) / "wt";
  fs::path patchFile = fs::path(repo.scratch()) / "change.patch";

  explicit Authored(const std::string& beforeWorktree = "") {
    if (!beforeWorktree.empty()) REQUIRE(repo.sh(beforeWorktree) == 0);
    REQUIRE(repo.sh("git rev-parse HEAD > ../head") == 0);
    head = readAll(fs::path(repo.dir()) / "../head").substr(0, 40);
    REQUIRE(addDetachedWorktree(repo.dir(), "wt", wt, head).ok());
  }
  // `script` run by sh in the worktree.
  void step(const std::string& script) const { REQUIRE(repo.sh("cd '" + wt.string() + "' && " + script) == 0); }
  PatchSummary patch() const {
    auto s = writeWorktreePatch(repo.dir(), "wt", head, patchFile);
    REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
    return *s;
  }
  std::string patchText() const { return readAll(patchFile); }
  // A fresh clone at the head with the patch applied by `git apply`.
  fs::path applied() const {
    const fs::path clone = fs::path(repo.scratch()) / "clone";
    REQUIRE(repo.sh("git clone -q . '" + clone.string() + "' && cd '" + clone.string() + "' && git apply '" +
                    patchFile.string() + "'") == 0);
    return clone;
  }
};

const std::string kThreeHundredLines = "i=0; while [ $i -lt 300 ]; do echo \"line $i\"; i=$((i+1)); done >> a.txt";

}  // namespace

TEST_CASE("worktree patch: a .gitattributes the step wrote does not turn 300 added lines into a binary patch" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a;
  a.step("printf '*.txt -diff\\n' > .gitattributes && printf '.git*\\n' > .gitignore && " + kThreeHundredLines);
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{".gitattributes", ".gitignore", "a.txt"});
  CHECK(s.filesChanged == 3);
  CHECK(s.linesAdded == 302);
  CHECK(s.linesDeleted == 2);  // the checkout's .gitignore, replaced
  CHECK(s.binaryPaths.empty());
  CHECK(s.binaryBytes == 0);
  const std::string text = a.patchText();
  CHECK(text.find("GIT binary patch") == std::string::npos);
  CHECK(text.find("\n+line 299\n") != std::string::npos);
  CHECK(text.find("\n+*.txt -diff\n") != std::string::npos);
}

TEST_CASE("worktree patch: a .gitattributes in a subdirectory is a changed file, not a rule for the diff" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a;
  a.step("printf '* binary\\n' > dir/sub/.gitattributes && printf 'delta\\n' >> dir/sub/c.txt");
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{"dir/sub/.gitattributes", "dir/sub/c.txt"});
  CHECK(s.linesAdded == 2);
  CHECK(s.binaryPaths.empty());
  CHECK(a.patchText().find("\n gamma\n+delta\n") != std::string::npos);
}

TEST_CASE("worktree patch: a new file a step-written .gitignore hides is part of the change" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a;
  a.step("printf 'secret.txt\\n.gitignore\\n' > dir/.gitignore && printf 'payload\\n' > dir/secret.txt");
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{"dir/.gitignore", "dir/secret.txt"});
  CHECK(a.patchText().find("+++ b/dir/secret.txt\n@@ -0,0 +1 @@\n+payload\n") != std::string::npos);
}

TEST_CASE("worktree patch: the checkout's own ignore rules and attributes still apply" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a(
      "printf '*.dat binary\\n' > .gitattributes && printf 'plain text\\n' > table.dat && "
      "git add .gitattributes table.dat && git commit -qm data");
  a.step(
      "printf 'log\\n' > new.log && mkdir -p ignored && printf 'x\\n' > ignored/y && printf 'n\\n' > kept.txt && "
      "printf 'other text\\n' > table.dat");
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{"kept.txt", "table.dat"});
  CHECK(s.binaryPaths == std::vector<std::string>{"table.dat"});
  CHECK(s.binaryBytes == 11 + 11);  // before and after
  CHECK(s.linesAdded == 1);         // kept.txt's
  CHECK(a.patchText().find("GIT binary patch") != std::string::npos);
  CHECK(readAll(a.applied() / "table.dat") == "other text\n");
}

TEST_CASE("worktree patch: a step's ident and eol attributes do not convert the bytes the patch carries" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a;
  // Read as rules, ident would turn "$Id: ...$" into "$Id$" and eol=crlf the
  // CRLF into LF: the patch would not carry what is on disk.
  a.step(
      "printf '* ident\\n*.txt text eol=crlf\\n' > .gitattributes && "
      "printf '$Id: hidden$\\r\\nbeta\\r\\n' > dir/b.txt && "
      "git hash-object --no-filters dir/b.txt | cut -c1-7 > ../b.oid");
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{".gitattributes", "dir/b.txt"});
  const std::string text = a.patchText();
  CHECK(text.find("\n+$Id: hidden$\r\n+beta\r\n") != std::string::npos);
  const std::string oid = readAll(a.wt / "../b.oid").substr(0, 7);
  CHECK(text.find(".." + oid + " 100644\n--- a/dir/b.txt") != std::string::npos);
}

TEST_CASE("worktree patch: modes, links and binary bytes apply on a fresh clone" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a;
  a.step(
      "chmod +x a.txt && rm link-to-b && ln -s a.txt new-link && printf '\\000\\001\\002' > blob.bin && "
      "rm dir/sub/c.txt");
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{"a.txt", "blob.bin", "dir/sub/c.txt", "link-to-b", "new-link"});
  CHECK(s.binaryPaths == std::vector<std::string>{"blob.bin"});
  CHECK(s.binaryBytes == 3);
  CHECK(s.linesDeleted == 2);  // c.txt's line, link-to-b's target
  const fs::path clone = a.applied();
  CHECK(readAll(clone / "blob.bin") == std::string("\0\1\2", 3));
  CHECK(fs::read_symlink(clone / "new-link") == "a.txt");
  CHECK_FALSE(fs::exists(fs::symlink_status(clone / "link-to-b")));
  CHECK_FALSE(fs::exists(clone / "dir/sub/c.txt"));
  CHECK((fs::status(clone / "a.txt").permissions() & fs::perms::owner_exec) != fs::perms::none);
}

TEST_CASE("worktree patch: nothing is written under the checkout's .git" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Authored a;
  a.step("printf 'new content\\n' > fresh.txt && printf 'alpha 3\\n' >> a.txt && mkdir -p d && printf 'x\\n' > d/y");
  auto listing = [&] {
    std::map<std::string, std::pair<std::uintmax_t, std::int64_t>> out;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(a.repo.dir()) / ".git")) {
      struct stat st {};
      ::lstat(e.path().c_str(), &st);
      out[e.path().string()] = {st.st_size,
                                static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    }
    return out;
  };
  const auto before = listing();
  const PatchSummary s = a.patch();
  CHECK(s.paths == std::vector<std::string>{"a.txt", "d/y", "fresh.txt"});
  CHECK(listing() == before);
}
