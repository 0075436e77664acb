#include <doctest/doctest.h>

#include "agents/review/chunking.h"
#include "agents/review/token_estimate.h"

using namespace lw;
using namespace lw::agents::review;

namespace {

// A file with `hunks` hunks of `lines` added lines each, 50 lines apart.
std::string fileDiff(const std::string& path, int hunks, int lines, int width = 40) {
  std::string out = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n";
  for (int h = 0; h < hunks; ++h) {
    const int start = 1 + h * 50;
    out += "@@ -" + std::to_string(start) + ",0 +" + std::to_string(start) + "," + std::to_string(lines) + " @@\n";
    for (int i = 0; i < lines; ++i) out += "+" + std::string(static_cast<std::size_t>(width), 'a' + (i % 26)) + "\n";
  }
  return out;
}

diff::DiffIndex index(const std::string& text) {
  auto d = diff::DiffIndex::parse(text);
  REQUIRE(d);
  return *d;
}

}  // namespace

TEST_CASE("review chunking: the token estimate is a byte count over three, rounded up") {
  CHECK(estimateTokens("") == 0);
  CHECK(estimateTokens("ab") == 1);
  CHECK(estimateTokens("abc") == 1);
  CHECK(estimateTokens("abcd") == 2);
}

TEST_CASE("review chunking: hunk lines carry their new-side numbers, removed lines none") {
  diff::DiffIndex d = index("--- a/x\n+++ b/x\n@@ -3,2 +3,2 @@\n keep\n-old\n+new\n");
  CHECK(renderHunk(d.files()[0].hunks[0]) ==
        "@@ -3,2 +3,2 @@\n"
        "     3   keep\n"
        "       - old\n"
        "     4 + new\n");
}

TEST_CASE("review chunking: small files share a chunk, in order") {
  diff::DiffIndex d = index(fileDiff("a.go", 1, 3) + fileDiff("b.go", 1, 3));
  ChunkPlan plan = planChunks({"a.go", "b.go"}, d, 500);
  REQUIRE(plan.chunks.size() == 1);
  REQUIRE(plan.chunks[0].parts.size() == 2);
  CHECK(plan.chunks[0].parts[0].path == "a.go");
  CHECK(plan.chunks[0].hasPath("b.go"));
  CHECK(plan.chunks[0].text().starts_with("file: a.go\n@@ -1,0 +1,3 @@\n     1 + aaaa"));
  CHECK(plan.clipped.empty());
}

TEST_CASE("review chunking: a file larger than a chunk is split at hunk boundaries") {
  // Four hunks of ~20 lines x ~50 bytes = ~1,000 bytes (~340 tokens) each.
  diff::DiffIndex d = index(fileDiff("big.go", 4, 20) + fileDiff("next.go", 1, 2));
  ChunkPlan plan = planChunks({"big.go", "next.go"}, d, 800);
  REQUIRE(plan.chunks.size() == 2);
  for (const Chunk& c : plan.chunks) {
    CHECK(c.tokens <= 800);
    CHECK(c.parts[0].path == "big.go");
    CHECK(c.parts[0].text.starts_with("file: big.go\n@@ "));
  }
  // The last part of the split file leaves room the next file takes.
  CHECK(plan.chunks[1].hasPath("next.go"));
  CHECK(plan.clipped.empty());
  // Every hunk is sent once, whole.
  std::string all = plan.chunks[0].text() + plan.chunks[1].text();
  for (const char* header : {"@@ -1,0 +1,20 @@", "@@ -51,0 +51,20 @@", "@@ -101,0 +101,20 @@", "@@ -151,0 +151,20 @@"})
    CHECK(all.find(header) != std::string::npos);
}

TEST_CASE("review chunking: a hunk larger than a chunk is clipped and the file recorded as clipped") {
  diff::DiffIndex d = index(fileDiff("huge.go", 1, 200));
  ChunkPlan plan = planChunks({"huge.go"}, d, 500);
  REQUIRE(plan.chunks.size() == 1);
  CHECK(plan.chunks[0].tokens <= 500);
  const std::string text = plan.chunks[0].text();
  CHECK(text.find("more lines of this hunk were clipped: not sent]") != std::string::npos);
  REQUIRE(plan.clipped.size() == 1);
  CHECK(plan.clipped[0].path == "huge.go");
  CHECK(plan.clipped[0].status == CoverageStatus::Clipped);
  CHECK(plan.clipped[0].reason.starts_with("a hunk larger than chunkTokens (the one at line 1) was clipped: "));
}

TEST_CASE("review chunking: clipping keeps whole lines and counts what it left out") {
  const std::string a(30, 'a'), b(30, 'b'), c(30, 'c');
  const std::string rendered =
      "@@ -1,0 +1,3 @@\n     1 + " + a + "\n     2 + " + b + "\n     3 + " + c + "\n";  // 136 bytes: 46 tokens
  int cut = -1;
  CHECK(clipRenderedHunk(rendered, 46, cut) == rendered);
  CHECK(cut == 0);
  const std::string clipped = clipRenderedHunk(rendered, 40, cut);
  CHECK(estimateTokens(clipped) <= 40);
  CHECK(cut == 2);
  CHECK(clipped == "@@ -1,0 +1,3 @@\n     1 + " + a + "\n[2 more lines of this hunk were clipped: not sent]\n");
}
