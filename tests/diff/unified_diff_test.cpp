#include <doctest/doctest.h>

#include "diff/unified_diff.h"

using namespace lw;

namespace {

constexpr const char* kDiff =
    "diff --git a/src/a.c b/src/a.c\n"
    "index 1..2 100644\n"
    "--- a/src/a.c\n"
    "+++ b/src/a.c\n"
    "@@ -1,3 +1,4 @@\n"
    " one\n"
    "--- removed line that looks like a header\n"
    "+++ added line that looks like a header\n"
    "+new\n"
    " three\n"
    "@@ -20 +21,2 @@ fn()\n"
    "-old\n"
    "+x\n"
    "+y\n"
    "\\ No newline at end of file\n"
    "diff --git a/gone.txt b/gone.txt\n"
    "deleted file mode 100644\n"
    "--- a/gone.txt\n"
    "+++ /dev/null\n"
    "@@ -1,2 +0,0 @@\n"
    "-a\n"
    "-b\n"
    "diff --git a/img.png b/img.png\n"
    "Binary files a/img.png and b/img.png differ\n"
    "diff --git \"a/sp ace\\tx.c\" \"b/sp ace\\tx.c\"\n"
    "--- \"a/sp ace\\tx.c\"\n"
    "+++ \"b/sp ace\\tx.c\"\n"
    "@@ -0,0 +1 @@\n"
    "+z\n";

}  // namespace

TEST_CASE("diff: hunks give the new-side lines a comment may use") {
  auto d = diff::DiffIndex::parse(kDiff);
  REQUIRE_MESSAGE(d.ok(), d.error().message);
  REQUIRE(d->files().size() == 4);
  const diff::DiffFile* a = d->file("src/a.c");
  REQUIRE(a);
  REQUIRE(a->hunks.size() == 2);
  CHECK(a->hunks[0].newStart == 1);
  CHECK(a->hunks[0].newCount == 4);
  CHECK(a->hunks[1].oldCount == 1);  // "-20" without a count means one line
  CHECK(a->hunks[1].newStart == 21);
  CHECK(d->commentable("src/a.c", 1));
  CHECK(d->commentable("src/a.c", 4));
  CHECK_FALSE(d->commentable("src/a.c", 5));
  CHECK(d->commentable("src/a.c", 22));
  CHECK_FALSE(d->commentable("src/a.c", 0));
  CHECK_FALSE(d->commentable("gone.txt", 1));
  CHECK(d->files()[1].newPath.empty());
  CHECK(d->files()[2].binary);
  CHECK(d->files()[2].newPath == "img.png");
  CHECK(d->commentable("sp ace\tx.c", 1));
}

TEST_CASE("diff: each hunk keeps its lines with their numbers on both sides") {
  auto d = diff::DiffIndex::parse(kDiff);
  REQUIRE_MESSAGE(d.ok(), d.error().message);
  const diff::DiffHunk& h = d->file("src/a.c")->hunks[0];
  REQUIRE(h.lines.size() == 5);
  CHECK(h.lines[0].kind == ' ');
  CHECK(h.lines[0].oldLine == 1);
  CHECK(h.lines[0].newLine == 1);
  CHECK(h.lines[1].kind == '-');
  CHECK(h.lines[1].text == "-- removed line that looks like a header");
  CHECK(h.lines[1].oldLine == 2);
  CHECK(h.lines[1].newLine == 0);
  CHECK(h.lines[2].kind == '+');
  CHECK(h.lines[2].newLine == 2);
  CHECK(h.lines[3].text == "new");
  CHECK(h.lines[3].newLine == 3);
  CHECK(h.lines[4].oldLine == 3);
  CHECK(h.lines[4].newLine == 4);
  const diff::DiffHunk& second = d->file("src/a.c")->hunks[1];
  REQUIRE(second.lines.size() == 3);  // the "\ No newline" marker is not a line
  CHECK(second.lines[0].oldLine == 20);
  CHECK(second.lines[2].newLine == 22);
}

TEST_CASE("diff: a range is placed only within one hunk") {
  auto d = diff::DiffIndex::parse(kDiff);
  REQUIRE(d.ok());
  SUBCASE("inside one hunk") {
    auto p = d->place("src/a.c", 2, 4);
    REQUIRE(p);
    CHECK(p->startLine == 2);
    CHECK(p->line == 4);
    CHECK_FALSE(p->clipped);
  }
  SUBCASE("across two hunks: the first line alone, clipped") {
    auto p = d->place("src/a.c", 3, 22);
    REQUIRE(p);
    CHECK(p->startLine == 0);
    CHECK(p->line == 3);
    CHECK(p->clipped);
  }
  SUBCASE("starting outside any hunk") { CHECK_FALSE(d->place("src/a.c", 10, 21)); }
  SUBCASE("single line") {
    auto p = d->place("src/a.c", 21, 0);
    REQUIRE(p);
    CHECK(p->startLine == 0);
    CHECK(p->line == 21);
  }
  SUBCASE("unknown file") { CHECK_FALSE(d->place("nope.c", 1, 1)); }
}

TEST_CASE("diff: malformed input is an error with the diff line") {
  struct Case {
    const char* text;
    int line;
    const char* message;
  };
  Case cases[] = {
      {"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n", 4, "diff ends inside a hunk"},
      {"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\nb\n", 5, "hunk ends early"},
      {"--- a/x\n+++ b/x\n@@ -1 +1 @@\n a\n+b\n", 0, nullptr},  // a line after a full hunk is not content
      {"--- a/x\n+++ b/x\n@@ -x +1 @@\n", 3, "bad hunk header '@@ -x +1 @@'"},
      {"@@ -1 +1 @@\n a\n", 1, "hunk before any file header"},
  };
  for (const Case& c : cases) {
    std::string text = c.text;
    CAPTURE(text);
    auto d = diff::DiffIndex::parse(c.text);
    if (!c.message) {
      CHECK(d.ok());
      continue;
    }
    REQUIRE_FALSE(d.ok());
    CHECK(d.error().code == ErrorCode::PublicationFailed);
    CHECK(d.error().location->line == c.line);
    CHECK(d.error().message == std::string("cannot parse the pull request diff: ") + c.message);
  }
  CHECK(diff::DiffIndex::parse("").ok());
}
