#include <doctest/doctest.h>

#include "github/publish/channels/review_plan.h"
#include "github/publish/channels/suggestion_plan.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"

using namespace lw;
using namespace lw::github;

namespace {

const std::string kHead = std::string(40, 'a');

// The pull request's diff: src/a.c lines 1-10 and 30-34 of the head are in
// hunks (context only, enough for placement), src/b.c not at all.
diff::DiffIndex prDiff() {
  std::string d = "diff --git a/src/a.c b/src/a.c\n--- a/src/a.c\n+++ b/src/a.c\n@@ -1,10 +1,10 @@\n";
  for (int i = 1; i <= 10; ++i) d += " l" + std::to_string(i) + "\n";
  d += "@@ -30,5 +30,5 @@\n";
  for (int i = 30; i <= 34; ++i) d += " l" + std::to_string(i) + "\n";
  auto parsed = diff::DiffIndex::parse(d);
  REQUIRE(parsed.ok());
  return std::move(parsed).value();
}

std::string fileHeader(const std::string& path) {
  return "diff --git a/" + path + " b/" + path + "\nindex 1111111..2222222 100644\n--- a/" + path + "\n+++ b/" + path +
         "\n";
}

ProposedChange change(std::string patch, std::string base = kHead) {
  return {"fix", "fmt", std::move(base), std::move(patch), "fix/fmt/change.patch", 1700000000};
}

struct Row {
  const char* name;
  std::string patch;
  // A suggestion expected (line, endLine, text) or, when line is 0, the body.
  int line;
  int endLine;
  std::string text;
};

}  // namespace

TEST_CASE("suggestion plan: a table of patches on a pull request's diff") {
  const diff::DiffIndex diff = prDiff();
  const std::string a = fileHeader("src/a.c");
  const std::vector<Row> rows = {
      {"single line", a + "@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n", 4, 0, "n4\n"},
      {"multi-line range", a + "@@ -3,4 +3,3 @@\n l3\n-l4\n-l5\n+n45\n l6\n", 4, 5, "n45\n"},
      {"insertion anchors on the line before", a + "@@ -3,2 +3,3 @@\n l3\n+ins\n l4\n", 3, 0, "l3\nins\n"},
      {"insertion at the top anchors on the line after", a + "@@ -1,2 +1,3 @@\n+top\n l1\n l2\n", 1, 0, "top\nl1\n"},
      {"deletion is an empty suggestion", a + "@@ -3,3 +3,2 @@\n l3\n-l4\n l5\n", 4, 0, ""},
      {"inner context is part of the range", a + "@@ -2,5 +2,5 @@\n l2\n-l3\n+n3\n l4\n-l5\n+n5\n l6\n", 3, 5,
       "n3\nl4\nn5\n"},
      {"second hunk of the diff", a + "@@ -31,3 +31,3 @@\n l31\n-l32\n+n32\n l33\n", 32, 0, "n32\n"},
      {"a hunk half outside the diff", a + "@@ -9,4 +9,4 @@\n l9\n-l10\n-l11\n+n10\n+n11\n l12\n", 0, 0, ""},
      {"a hunk across two diff hunks",
       a + "@@ -10,21 +10,1 @@\n-" +
           [] {
             std::string s = "l10";
             for (int i = 11; i <= 30; ++i) s += "\n-l" + std::to_string(i);
             return s;
           }() +
           "\n+x\n",
       0, 0, ""},
      {"a file not in the diff", fileHeader("src/b.c") + "@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n", 0, 0, ""},
      {"binary",
       "diff --git a/img.png b/img.png\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 5\n"
       "McmZ?wbYf=\n\nliteral 0\nHcmV?d00001\n\n",
       0, 0, ""},
      {"rename",
       "diff --git a/src/a.c b/src/c.c\nsimilarity index 90%\nrename from src/a.c\nrename to src/c.c\n"
       "--- a/src/a.c\n+++ b/src/c.c\n@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n",
       0, 0, ""},
      {"new file",
       "diff --git a/src/a.c b/src/a.c\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.c\n@@ -0,0 +1 @@\n+x\n", 0, 0,
       ""},
      {"mode change",
       "diff --git a/src/a.c b/src/a.c\nold mode 100644\nnew mode 100755\n--- a/src/a.c\n+++ b/src/a.c\n"
       "@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n",
       0, 0, ""},
      {"no newline at the end", a + "@@ -9,2 +9,2 @@\n l9\n-l10\n+n10\n\\ No newline at end of file\n", 0, 0, ""},
      {"CRLF line", a + "@@ -3,3 +3,3 @@\n l3\n-l4\r\n+n4\r\n l5\n", 0, 0, ""},
      {"hidden marker in the new code",
       a + "@@ -3,3 +3,3 @@\n l3\n-l4\n+<!-- loopwright:finding:0123456789abcdef -->\n l5\n", 0, 0, ""},
      {"bidi control in the new code", a + "@@ -3,3 +3,3 @@\n l3\n-l4\n+x = 1; \xE2\x80\xAE// admin\n l5\n", 0, 0, ""},
  };
  for (const Row& row : rows) {
    SUBCASE(row.name) {
      SuggestionPlan plan = planSuggestions({change(row.patch)}, &diff, kHead);
      REQUIRE(plan.pieces.size() == 1);
      const PatchPiece& p = plan.pieces[0];
      if (row.line) {
        CHECK(p.finding.ruleId == kSuggestionRule);
        CHECK(p.finding.path == "src/a.c");
        CHECK(p.finding.line == row.line);
        CHECK(p.finding.endLine == row.endLine);
        REQUIRE(p.finding.suggestion);
        CHECK(*p.finding.suggestion == row.text);
        CHECK(p.patch == row.patch);
      } else {
        CHECK(p.finding.ruleId == kPatchRule);
        CHECK(p.finding.path.empty());
        CHECK_FALSE(p.finding.suggestion);
        CHECK(p.patch == row.patch);
      }
    }
  }
}

// Suggestions already posted name their patch by this tag (FNV-1a 32 of the
// suggested text): the same change must keep it.
TEST_CASE("suggestion plan: the patch tag is the one already posted for the same text") {
  const diff::DiffIndex diff = prDiff();
  SuggestionPlan plan =
      planSuggestions({change(fileHeader("src/a.c") + "@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n")}, &diff, kHead);
  REQUIRE(plan.pieces.size() == 1);
  CHECK(plan.pieces[0].finding.message.find("(patch `54d5a84f`)") != std::string::npos);
}

TEST_CASE("suggestion plan: each file that cannot carry a suggestion says why") {
  const diff::DiffIndex diff = prDiff();
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"diff --git a/src/a.c b/src/a.c\nnew file mode 100644\nindex 0000000..e69de29\n", "`src/a.c` is a new file"},
      {"diff --git a/src/a.c b/src/a.c\ndeleted file mode 100644\nindex e69de29..0000000\n", "`src/a.c` is deleted"},
      {"diff --git a/src/a.c b/src/a.c\nold mode 100644\nnew mode 100755\n", "`src/a.c` changes its file mode"},
      {"diff --git a/src/a.c b/src/d.c\nsimilarity index 100%\nrename from src/a.c\nrename to src/d.c\n",
       "`src/d.c` is renamed or copied"},
  };
  for (const auto& [patch, why] : rows) {
    CAPTURE(patch);
    SuggestionPlan plan = planSuggestions({change(patch)}, &diff, kHead);
    REQUIRE(plan.pieces.size() == 1);
    CHECK(plan.pieces[0].patch == patch);
    CHECK(plan.pieces[0].finding.message.find("\n- " + why) != std::string::npos);
  }
}

TEST_CASE("suggestion plan: hunks of one file are split between suggestions and the body") {
  const diff::DiffIndex diff = prDiff();
  const std::string h = fileHeader("src/a.c");
  const std::string inside = "@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n";
  const std::string outside = "@@ -20,3 +20,3 @@\n l20\n-l21\n+n21\n l22\n";
  SuggestionPlan plan = planSuggestions({change(h + inside + outside)}, &diff, kHead);
  REQUIRE(plan.pieces.size() == 2);
  CHECK(plan.pieces[0].finding.line == 4);
  CHECK(plan.pieces[0].patch == h + inside);
  CHECK(plan.pieces[1].finding.ruleId == kPatchRule);
  CHECK(plan.pieces[1].patch == h + outside);
  CHECK(plan.pieces[1].finding.message.find("`src/a.c` at line 20 replaces lines outside one hunk") !=
        std::string::npos);
}

TEST_CASE("suggestion plan: a change made on another commit, or with no diff known, goes whole to the body") {
  const diff::DiffIndex diff = prDiff();
  const std::string patch = fileHeader("src/a.c") + "@@ -3,3 +3,3 @@\n l3\n-l4\n+n4\n l5\n";
  for (const auto& plan : {planSuggestions({change(patch, std::string(40, 'b'))}, &diff, kHead),
                           planSuggestions({change(patch)}, nullptr, kHead),
                           planSuggestions({change("not a patch\n" + patch)}, &diff, kHead)}) {
    REQUIRE(plan.pieces.size() == 1);
    CHECK(plan.pieces[0].finding.ruleId == kPatchRule);
  }
  CHECK(planSuggestions({change(patch, std::string(40, 'b'))}, &diff, kHead)
            .pieces[0]
            .finding.message.find("it was made on commit bbbbbbbbbbbb, and the pull request's head is aaaaaaaaaaaa") !=
        std::string::npos);
}

TEST_CASE("suggestion plan: backticks in the new code get a longer fence, and the code is kept verbatim") {
  const diff::DiffIndex diff = prDiff();
  const std::string code = "s = \"```` @octocat <b>x</b> [a](https://evil.example)\"";
  SuggestionPlan plan = planSuggestions(
      {change(fileHeader("src/a.c") + "@@ -3,3 +3,3 @@\n l3\n-l4\n+" + code + "\n l5\n")}, &diff, kHead);
  REQUIRE(plan.pieces.size() == 1);
  const Finding& f = plan.pieces[0].finding;
  REQUIRE(f.suggestion);
  CHECK(*f.suggestion == code + "\n");
  InlineComment c{f, fingerprint(f), diff::CommentPlacement{0, 4, false}, f.path};
  const std::string body = inlineCommentBody(c);
  CHECK(body.find("`````suggestion\n" + code + "\n`````\n") != std::string::npos);
}

TEST_CASE("suggestion plan: the same suggestion has the same fingerprint, a different one another") {
  const diff::DiffIndex diff = prDiff();
  auto fp = [&](const std::string& line) {
    return fingerprint(
        planSuggestions({change(fileHeader("src/a.c") + "@@ -3,3 +3,3 @@\n l3\n-l4\n+" + line + "\n l5\n")}, &diff,
                        kHead)
            .pieces[0]
            .finding);
  };
  CHECK(fp("a") == fp("a"));
  CHECK(fp("a") != fp("b"));
}

TEST_CASE("patch appendix: body pieces as a diff block, markers broken, cut with the bytes left out") {
  const diff::DiffIndex diff = prDiff();
  std::string big;
  for (int i = 0; i < 400; ++i) big += "+added line " + std::to_string(i) + "\n";
  const std::string patch =
      fileHeader("src/b.c") + "@@ -3,2 +3,403 @@\n l3\n" + big + "+<!-- loopwright:finding:0123456789abcdef -->\n l4\n";
  SuggestionPlan plan = planSuggestions({change(patch)}, &diff, kHead);
  REQUIRE(plan.pieces.size() == 1);
  const std::set<std::string> inBody{fingerprint(plan.pieces[0].finding)};

  const std::string whole = patchAppendix(plan, inBody, 65536);
  CHECK(whole.find("```diff\ndiff --git a/src/b.c b/src/b.c\n") != std::string::npos);
  CHECK(whole.find("The whole patch is `fix/fmt/change.patch`") != std::string::npos);
  CHECK(markersIn(whole).findings.empty());
  CHECK(whole.find("<!--") == std::string::npos);

  const std::string cut = patchAppendix(plan, inBody, 2000);
  CHECK(cut.size() <= 2000);
  CHECK(cut.find(" bytes of this patch are left out here; the whole patch is `fix/fmt/change.patch`") !=
        std::string::npos);
  CHECK(patchAppendix(plan, {}, 65536).empty());
}
