// The commit-level calls of verify's libgit2 wrapper, on a repository made
// with the git CLI.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/temp_dir.h"
#include "verify/git/libgit2.h"
#include "verify/patch/apply_patch.h"

using namespace lw;
using namespace lw::verify;

namespace {

// main: a.txt, then a second commit; tag v1 (annotated) on the first.
struct Repo {
  test::TempDir tmp;
  std::string dir = tmp.root.string() + "/repo";

  int sh(const std::string& script) const {
    const std::string cmd = "cd '" + tmp.root.string() + "' && (" + script + ") >/dev/null 2>&1";
    return std::system(cmd.c_str());
  }
  std::string out(const std::string& command) const {
    REQUIRE(sh(command + " > out.txt") == 0);
    std::ifstream in(tmp.root / "out.txt");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  Repo() {
    REQUIRE(sh("git init -q -b main repo && cd repo && git config user.email t@e && git config user.name t && "
               "printf 'one\\n' > a.txt && git add . && git commit -qm first && git tag -a v1 -m v1 && "
               "printf 'two\\n' > a.txt && git commit -qam 'second line' -m 'body'") == 0);
  }
  GitPtr<git_repository> open() const {
    auto repo = openRepository(dir);
    REQUIRE(repo.ok());
    return std::move(*repo);
  }
};

git_oid commitAt(git_repository* repo, const std::string& rev) {
  auto commit = revisionCommit(repo, rev);
  REQUIRE(commit.ok());
  return *commit;
}

const std::string kPatch = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n+three\n";

}  // namespace

TEST_CASE("verify git: a revision resolves to its commit and tree and anything else is refused") {
  Repo r;
  auto repo = r.open();
  const git_oid head = commitAt(repo.get(), "HEAD");
  CHECK(oidHex(head) + "\n" == r.out("git -C repo rev-parse HEAD"));
  CHECK(oidHex(commitAt(repo.get(), "v1")) + "\n" == r.out("git -C repo rev-parse 'v1^{commit}'"));
  auto tree = revisionTree(repo.get(), "refs/heads/main");
  REQUIRE(tree.ok());
  auto file = fileInTree(repo.get(), tree->get(), "a.txt", ErrorCode::IoError, "a.txt");
  REQUIRE(file.ok());
  CHECK(file->bytes() == "two\n");
  auto missing = revisionCommit(repo.get(), "refs/heads/nothing");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == ErrorCode::IoError);
  CHECK(missing.error().message.starts_with("no revision 'refs/heads/nothing'"));
  auto blob = revisionCommit(repo.get(), "HEAD:a.txt");
  REQUIRE_FALSE(blob.ok());
  CHECK(blob.error().message.starts_with("'HEAD:a.txt' is not a commit"));
}

TEST_CASE("verify git: a commit's subject and parents are read") {
  Repo r;
  auto repo = r.open();
  auto facts = commitFacts(repo.get(), commitAt(repo.get(), "HEAD"));
  REQUIRE(facts.ok());
  CHECK(facts->summary == "second line");
  REQUIRE(facts->parents.size() == 1);
  CHECK(oidHex(facts->parents[0]) + "\n" == r.out("git -C repo rev-parse HEAD~1"));
  auto root = commitFacts(repo.get(), facts->parents[0]);
  REQUIRE(root.ok());
  CHECK(root->parents.empty());
}

TEST_CASE("verify git: a patch committed on a parent moves no ref and carries the identity given") {
  Repo r;
  auto repo = r.open();
  const git_oid head = commitAt(repo.get(), "HEAD");
  const std::string refsBefore = r.out("git -C repo show-ref --head");
  auto made = commitWithPatch(repo.get(), head, kPatch, {"who", "who@example.invalid", 86400}, "made\n");
  REQUIRE(made.ok());
  CHECK(r.out("git -C repo show-ref --head") == refsBefore);
  const std::string sha = oidHex(*made);
  CHECK(r.out("git -C repo show -s --format='%an <%ae> %at %P %s' " + sha) ==
        "who <who@example.invalid> 86400 " + oidHex(head) + " made\n");
  CHECK(r.out("git -C repo show " + sha + ":a.txt") == "three\n");
  auto refused = commitWithPatch(repo.get(), head, "not a patch", {"who", "w@e", 0}, "x\n");
  CHECK_FALSE(refused.ok());
}

TEST_CASE("verify git: a tree written into a directory leaves the working tree and the index alone") {
  Repo r;
  auto repo = r.open();
  auto tree = revisionTree(repo.get(), "v1");
  REQUIRE(tree.ok());
  const std::string target = r.tmp.root.string() + "/out";
  std::filesystem::create_directories(target);
  REQUIRE(checkoutTreeInto(repo.get(), tree->get(), target, "v1").ok());
  CHECK(r.out("cat out/a.txt") == "one\n");
  CHECK(r.out("cat repo/a.txt") == "two\n");
  CHECK(r.out("git -C repo status --porcelain").empty());
}

TEST_CASE("verify git: a repository is opened at its own directory alone when asked") {
  Repo r;
  REQUIRE(r.sh("mkdir repo/sub") == 0);
  CHECK(openRepository(r.dir + "/sub").ok());
  auto exact = openRepositoryAt(r.dir + "/sub");
  REQUIRE_FALSE(exact.ok());
  CHECK(exact.error().code == ErrorCode::IoError);
  CHECK(openRepositoryAt(r.dir).ok());
}

TEST_CASE("verify git: a borrowing repository reads the other's objects and writes only its own") {
  Repo r;
  REQUIRE(r.sh("cd repo && git remote add origin ../remote.git && git remote set-url --push origin ../push.git") == 0);
  auto checkout = r.open();
  CHECK(remotePushUrl(checkout.get(), "origin") == r.tmp.root.string() + "/push.git");
  CHECK(remotePushUrl(checkout.get(), "upstream").empty());
  const std::string objectsBefore = r.out("find repo/.git/objects -type f | sort");
  auto scratch = initBorrowingRepository(r.tmp.root.string() + "/scratch", checkout.get());
  REQUIRE(scratch.ok());
  auto made = commitWithPatch(scratch->get(), commitAt(checkout.get(), "HEAD"), kPatch, {"who", "w@e", 0}, "made\n");
  REQUIRE(made.ok());
  CHECK(r.out("find repo/.git/objects -type f | sort") == objectsBefore);
  CHECK(r.out("git -C scratch cat-file -t " + oidHex(*made)) == "commit\n");
}
