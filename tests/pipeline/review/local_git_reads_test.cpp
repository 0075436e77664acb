#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "pipeline/review/git_diff_source.h"
#include "pipeline/review/local_git_reads.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

// A repository made with the git CLI: main has a.txt, old.txt, gone.txt;
// branch "feature" (from main's first commit) renames old.txt, adds a
// binary file and new.txt, edits a.txt and removes gone.txt; main then
// moves on (b.txt), so base's tip is not the merge base.
struct Repo {
  test::TempDir tmp;
  std::string dir = tmp.root.string();
  std::string base, head, forkPoint;

  int sh(const std::string& script) const {
    std::string cmd = "cd '" + dir + "' && (" + script + ") >/dev/null 2>&1";
    return std::system(cmd.c_str());
  }
  std::string rev(const std::string& what) const {
    std::string out = tmp.root.string() + "/.rev";
    REQUIRE(sh("git rev-parse " + what + " > .rev") == 0);
    std::ifstream in(dir + "/.rev");
    std::string sha;
    in >> sha;
    std::remove((dir + "/.rev").c_str());
    return sha;
  }
  Repo() {
    std::string longText;
    for (int i = 1; i <= 40; ++i)
      longText += "line " + std::to_string(i) + " of a file long enough to be found renamed\n";
    tmp.write("old.txt", longText);
    tmp.write("a.txt", "one\ntwo\nthree\n");
    tmp.write("gone.txt", "bye\n");
    REQUIRE(sh("git init -q -b main . && git config user.email t@e && git config user.name t && "
               "git add . && git commit -qm first") == 0);
    forkPoint = rev("HEAD");
    REQUIRE(sh("git checkout -qb feature && git mv old.txt renamed.txt && git rm -q gone.txt && "
               "printf 'one\\nTWO\\nthree\\nfour\\n' > a.txt && printf 'new\\n' > new.txt && "
               "printf '\\211PNG\\r\\n\\032\\n\\0\\0\\0' > logo.png && git add . && git commit -qm feature") == 0);
    head = rev("HEAD");
    REQUIRE(sh("git checkout -q main && printf 'later\\n' > b.txt && printf 'one\\ntwo\\n3\\n' > a.txt && "
               "git add . && git commit -qm later") == 0);
    base = rev("HEAD");
  }
};

const ChangedFile* findFile(const PullFiles& f, const std::string& path) {
  for (const auto& c : f.files)
    if (c.path == path) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("local git reads: files of base...head with renames, binaries and counts") {
  Repo r;
  LocalGitReads reads(r.dir);
  auto f = reads.files({r.base, r.head, false});
  REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
  CHECK(f->scope.base == r.base);
  CHECK_FALSE(f->truncated);
  // b.txt and main's own edit of a.txt are after the merge base: not in the pull request.
  CHECK(findFile(*f, "b.txt") == nullptr);
  REQUIRE(f->files.size() == 5);
  const ChangedFile* renamed = findFile(*f, "renamed.txt");
  REQUIRE(renamed);
  CHECK(renamed->status == FileChange::Renamed);
  CHECK(renamed->previousPath == "old.txt");
  CHECK(renamed->additions == 0);
  const ChangedFile* a = findFile(*f, "a.txt");
  REQUIRE(a);
  CHECK(a->status == FileChange::Modified);
  CHECK(a->additions == 2);
  CHECK(a->deletions == 1);
  const ChangedFile* logo = findFile(*f, "logo.png");
  REQUIRE(logo);
  CHECK(logo->status == FileChange::Added);
  CHECK(logo->binary);
  REQUIRE(findFile(*f, "gone.txt"));
  CHECK(findFile(*f, "gone.txt")->status == FileChange::Removed);
  CHECK(findFile(*f, "new.txt")->status == FileChange::Added);
}

TEST_CASE("local git reads: the diff starts at the merge base and is git's text") {
  Repo r;
  LocalGitReads reads(r.dir);
  auto d = reads.diff({r.base, r.head, false});
  REQUIRE(d.ok());
  CHECK_FALSE(d->truncated);
  CHECK(d->diff.find("diff --git a/old.txt b/renamed.txt\n") != std::string::npos);
  CHECK(d->diff.find("rename from old.txt\n") != std::string::npos);
  CHECK(d->diff.find("-two\n+TWO\n three\n+four\n") != std::string::npos);
  CHECK(d->diff.find("Binary files /dev/null and b/logo.png differ") != std::string::npos);
  CHECK(d->diff.find("b.txt") == std::string::npos);
  CHECK(d->diff.find("+3") == std::string::npos);
  SUBCASE("a diff over the limit is cut at a file boundary") {
    LocalGitReads small(r.dir, ReadLimits{.diffBytes = d->diff.size() - 1});
    auto c = small.diff({r.base, r.head, false});
    REQUIRE(c.ok());
    CHECK(c->truncated);
    CHECK(c->diff.size() < d->diff.size());
    CHECK(c->diff.starts_with("diff --git "));
    CHECK(d->diff.starts_with(c->diff));
    CHECK(d->diff.substr(c->diff.size()).starts_with("diff --git "));
  }
}

TEST_CASE("local git reads: a file at base or head, bounded") {
  Repo r;
  LocalGitReads reads(r.dir);
  auto headA = reads.file(r.head, "a.txt", TreeSide::Head);
  REQUIRE(headA.ok());
  CHECK(headA->content == "one\nTWO\nthree\nfour\n");
  CHECK(headA->size == 19);
  CHECK(headA->sha.size() == 40);
  CHECK_FALSE(headA->truncated);
  CHECK(reads.file(r.base, "a.txt", TreeSide::Base)->content == "one\ntwo\n3\n");
  auto png = reads.file(r.head, "logo.png", TreeSide::Head);
  REQUIRE(png.ok());
  CHECK(png->binary);
  CHECK(png->content.empty());
  CHECK(png->size == 11);
  SUBCASE("too large: the first bytes, the whole size, truncated") {
    LocalGitReads small(r.dir, ReadLimits{.fileBytes = 6});
    auto f = small.file(r.head, "a.txt", TreeSide::Head);
    REQUIRE(f.ok());
    CHECK(f->truncated);
    CHECK(f->content == "one\nTW");
    CHECK(f->size == 19);
  }
  SUBCASE("missing paths and directories are not found") {
    auto gone = reads.file(r.head, "gone.txt", TreeSide::Head);
    REQUIRE_FALSE(gone.ok());
    CHECK(isNotFound(gone.error()));
    CHECK(gone.error().message.starts_with("not found: gone.txt at head"));
    REQUIRE(r.sh("mkdir -p d && echo x > d/f && git add d && git commit -qm d") == 0);
    auto dir = reads.file(r.rev("HEAD"), "d", TreeSide::Head);
    REQUIRE_FALSE(dir.ok());
    CHECK(isNotFound(dir.error()));
  }
}

TEST_CASE("local git reads: ancestry and missing commits") {
  Repo r;
  LocalGitReads reads(r.dir);
  CHECK(reads.isAncestor(r.forkPoint, r.head).value());
  CHECK(reads.isAncestor(r.head, r.head).value());
  CHECK_FALSE(reads.isAncestor(r.base, r.head).value());
  auto missing = reads.diff({std::string(40, 'e'), r.head, false});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == ErrorCode::IoError);
  CHECK(missing.error().message.find("is not in the clone") != std::string::npos);
  CHECK_FALSE(reads.files({"main", r.head, false}).ok());
}

TEST_CASE("git diff source: base..head from the clone as git prints it, renames not folded") {
  Repo r;
  GitDiffSource source(r.dir, r.forkPoint);
  github::PublicationRequest request;
  request.headSha = r.head;
  auto d = source.unifiedDiff(request);
  REQUIRE(d.ok());
  CHECK(d->find("diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n") != std::string::npos);
  CHECK(d->find("diff --git a/renamed.txt b/renamed.txt\nnew file mode 100644\n") != std::string::npos);
  CHECK(d->find("-two\n+TWO\n three\n+four\n") != std::string::npos);
  CHECK(d->find("b.txt") == std::string::npos);
  request.headSha = std::string(40, 'e');
  auto missing = source.unifiedDiff(request);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == ErrorCode::IoError);
  CHECK(missing.error().message.find("is not in the clone") != std::string::npos);
}
