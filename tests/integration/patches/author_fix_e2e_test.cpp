// examples/author-fix end to end (docs/author-steps.md, "A worked example"):
// `loopwright run --publish github` of its formatter step on the example's
// pull request, against the local GitHub server, in a real sandbox (bwrap,
// and Landlock where the host has it). The accepted fix ends as ONE review
// whose suggestions sit on the lines they replace and whose body carries the
// change off the diff as a patch; a fix that fails its validate check or
// exceeds maxChangedLines is refused with the numbers and published nowhere;
// with patches: branch it is a commit on a branch of a real bare remote. In
// every case the checkout is byte for byte what it was, .git included.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include <boost/json.hpp>

#include "integration/patches/author_fix_fixture.h"
#include "support/tree_snapshot.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const auto nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl - at + 1));
    at = nl + 1;
  }
  return lines;
}

// `file` with each suggestion (lines start_line..line replaced by its block)
// committed, as GitHub's "Commit suggestion" does.
std::string withSuggestions(const std::string& file, json::array comments) {
  std::vector<std::string> lines = linesOf(file);
  std::sort(comments.begin(), comments.end(), [](const json::value& a, const json::value& b) {
    return a.at("line").as_int64() > b.at("line").as_int64();
  });
  for (const json::value& c : comments) {
    const std::string body(c.at("body").as_string());
    const auto from = body.find("```suggestion\n") + 14;
    const auto last = c.at("line").as_int64();
    const auto first = c.as_object().contains("start_line") ? c.at("start_line").as_int64() : last;
    lines.erase(lines.begin() + first - 1, lines.begin() + last);
    const auto block = linesOf(body.substr(from, body.find("```\n", from) - from));
    lines.insert(lines.begin() + first - 1, block.begin(), block.end());
  }
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

// The two hunks on the pull request's lines of src/greet.c, inline.
void checkSuggestions(AuthorFix& fx) {
  json::array comments = fx.github.reviewComments(1);
  REQUIRE(comments.size() == 2);
  std::sort(comments.begin(), comments.end(), [](const json::value& a, const json::value& b) {
    return a.at("line").as_int64() < b.at("line").as_int64();
  });
  const json::object& range = comments[0].as_object();
  CHECK(range.at("path") == "src/greet.c");
  CHECK(range.at("start_line") == 11);
  CHECK(range.at("line") == 13);
  CHECK(range.at("side") == "RIGHT");
  CHECK(range.at("commit_id").as_string() == fx.head);
  CHECK(std::string(range.at("body").as_string())
            .find("\n```suggestion\n"
                  "    for (int i = 0; i < count; i++) {\n"
                  "        greet(names[i]);\n"
                  "    }\n```\n") != std::string::npos);
  const json::object& single = comments[1].as_object();
  CHECK(single.at("path") == "src/greet.c");
  CHECK(single.at("line") == 25);
  CHECK_FALSE(single.contains("start_line"));
  CHECK(std::string(single.at("body").as_string())
            .find("\n```suggestion\n    printf(\"Goodbye, %s!\\n\", name);\n```\n") != std::string::npos);
  // Committing both on the head gives exactly what the formatter makes.
  CHECK(withSuggestions(fx.git("show HEAD:src/greet.c") + "\n", comments) == fx.fixedAtHead("src/greet.c"));
}

// src/util.c, not in the pull request, as a patch in the review's body.
void checkBodyPatch(const std::string& body) {
  CHECK(body.find("A proposed change in 3 parts: 2 suggestions inline, 1 below.") != std::string::npos);
  CHECK(body.find("`src/util.c` at line 4 replaces lines outside one hunk of the pull request's diff") !=
        std::string::npos);
  CHECK(body.find("```diff\ndiff --git a/src/util.c b/src/util.c\n") != std::string::npos);
  CHECK(body.find("\n-    size_t n = strlen(s);  \n+    size_t n = strlen(s);\n") != std::string::npos);
  CHECK(body.find("greet(names[i])") == std::string::npos);  // inline, not in the body
  CHECK(body.find("`steps/format/fix-format/change.patch`") != std::string::npos);
}

void suggestionsEndToEnd(const std::string& backend) {
  AuthorFix fx(exampleTaskpack(backend));
  const TreeSnapshot before = snapshotTree(fx.repo);
  auto r = fx.run();
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json::object step = fx.step();
  CHECK(step.at("outcome") == "passed");
  CHECK(step.at("backend").as_string() == backend);
  const json::object& change = step.at("change").as_object();
  CHECK(change.at("accepted") == true);
  CHECK(change.at("paths") == json::array{"src/greet.c", "src/util.c"});
  CHECK(change.at("linesAdded") == 5);
  CHECK(change.at("linesDeleted") == 5);
  CHECK(change.at("validation").at("passed") == true);

  CHECK(fx.github.count("POST", "/pulls/1/reviews") == 1);  // ONE review
  json::array reviews = fx.github.reviews(1);
  REQUIRE(reviews.size() == 1);
  checkSuggestions(fx);
  checkBodyPatch(std::string(reviews[0].at("body").as_string()));
  CHECK(fx.github.issueComments(1).empty());
  CHECK(treeDifferences(before, snapshotTree(fx.repo)).empty());
}

// A refused change: exit 5, the step quarantined with `code`, `refused` in
// run.json and the BLOCKER, nothing on GitHub nor on the remote.
void refusedEndToEnd(const std::string& backend, const std::vector<std::pair<std::string, std::string>>& edits,
                     const std::string& code, const std::string& refused) {
  for (const std::string patches : {"suggestions", "branch"}) {
    INFO("patches: " << patches);
    auto all = edits;
    all.emplace_back("patches: suggestions", "patches: " + patches);
    AuthorFix fx(exampleTaskpack(backend, all));
    const fs::path origin = fx.addOrigin();
    const TreeSnapshot before = snapshotTree(fx.repo);
    const std::string remoteRefs = AuthorFix::gitAt(origin, "for-each-ref");
    auto r = fx.run();
    INFO(r.out << r.err);
    CHECK(r.status == 5);
    const json::object step = fx.step();
    CHECK(step.at("outcome") == "quarantined");
    CHECK(step.at("backend").as_string() == backend);
    CHECK(step.at("verification").at("violation").as_string() == code);
    CHECK(step.at("change").at("accepted") == false);
    CHECK(step.at("change").at("refusedBecause").as_string() == refused);
    const json::string* blocker_ = step.at("blocker").if_string();
    const std::string blocker = blocker_ ? std::string(*blocker_) : "";
    CHECK(blocker.find("(" + code + "): " + refused + ".") != std::string::npos);
    CHECK(blocker.find("Next action: run sh .loopwright/fix-format.sh locally and push the result.") !=
          std::string::npos);
    requirePublishedNowhere(fx.github);
    CHECK(AuthorFix::gitAt(origin, "for-each-ref") == remoteRefs);
    CHECK(treeDifferences(before, snapshotTree(fx.repo)).empty());
  }
}

// Only the trailing blanks stripped: the tabs are left, check-format fails.
void validateRefusedEndToEnd(const std::string& backend) {
  refusedEndToEnd(backend, {{"run: [sh, .loopwright/fix-format.sh]", "run: [sh, -c, \"sed -i 's/ *$//' src/*.c\"]"}},
                  "CONTRACT_UNMET", "validate `sh .loopwright/check-format.sh` exited 1");
}

void tooLargeEndToEnd(const std::string& backend) {
  refusedEndToEnd(backend, {{"maxChangedLines: 40", "maxChangedLines: 6"}}, "PATH_POLICY_VIOLATION",
                  "changed 10 lines (5 added, 5 deleted), the contract allows 6");
}

void branchEndToEnd(const std::string& backend) {
  AuthorFix fx(exampleTaskpack(backend, {{"patches: suggestions", "patches: branch"}}));
  const fs::path origin = fx.addOrigin();
  const TreeSnapshot before = snapshotTree(fx.repo);
  auto r = fx.run();
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string runId(runJson(fx.s.root / "out").at("runId").as_string());
  const std::string branch = "loopwright/" + runId + "/" + kStep;
  const std::string commit = AuthorFix::gitAt(origin, "rev-parse --verify -q refs/heads/" + branch);
  REQUIRE_MESSAGE(commit.size() == 40, AuthorFix::gitAt(origin, "for-each-ref"));
  CHECK(AuthorFix::gitAt(origin, "rev-parse " + commit + "^@") == fx.head);  // one parent: the head
  CHECK(AuthorFix::gitAt(origin, "rev-parse " + commit + "^{tree}") == fx.fixedTreeAtHead());
  CHECK(AuthorFix::gitAt(origin, "log -1 --format=%an%n%s " + commit) ==
        "loopwright\nloopwright: change proposed by author step format/fix-format");
  CHECK(AuthorFix::gitAt(origin, "rev-parse main feature") == fx.git("rev-parse main feature"));

  // The pull request is linked by one comment; the review carries nothing of it.
  json::array links = fx.github.issueComments(1);
  REQUIRE(links.size() == 1);
  const std::string link(links[0].at("body").as_string());
  CHECK(link.find("`" + branch + "`") != std::string::npos);
  CHECK(link.find(commit) != std::string::npos);
  CHECK(link.find("/compare/" + fx.head + "..." + branch) != std::string::npos);
  CHECK(fx.github.reviewComments(1).empty());
  CHECK(treeDifferences(before, snapshotTree(fx.repo)).empty());
}

}  // namespace

TEST_CASE(
    "examples/author-fix on linux-bwrap: one review, suggestions on the right lines, the rest as a patch in its body") {
  if (backendAvailable("linux-bwrap")) suggestionsEndToEnd("linux-bwrap");
}

TEST_CASE(
    "examples/author-fix on linux-landlock: one review, suggestions on the right lines, the rest as a patch in its "
    "body") {
  if (backendAvailable("linux-landlock")) suggestionsEndToEnd("linux-landlock");
}

TEST_CASE(
    "examples/author-fix on linux-bwrap: a fix that fails its validate check is refused with its exit status, "
    "published nowhere") {
  if (backendAvailable("linux-bwrap")) validateRefusedEndToEnd("linux-bwrap");
}

TEST_CASE(
    "examples/author-fix on linux-landlock: a fix that fails its validate check is refused with its exit status, "
    "published nowhere") {
  if (backendAvailable("linux-landlock")) validateRefusedEndToEnd("linux-landlock");
}

TEST_CASE(
    "examples/author-fix on linux-bwrap: a fix over maxChangedLines is refused with the numbers, published nowhere") {
  if (backendAvailable("linux-bwrap")) tooLargeEndToEnd("linux-bwrap");
}

TEST_CASE(
    "examples/author-fix on linux-landlock: a fix over maxChangedLines is refused with the numbers, published "
    "nowhere") {
  if (backendAvailable("linux-landlock")) tooLargeEndToEnd("linux-landlock");
}

TEST_CASE(
    "examples/author-fix on linux-bwrap with patches: branch: a commit on the head, pushed to the bare origin, linked "
    "on the pull request") {
  if (backendAvailable("linux-bwrap")) branchEndToEnd("linux-bwrap");
}

TEST_CASE(
    "examples/author-fix on linux-landlock with patches: branch: a commit on the head, pushed to the bare origin, "
    "linked on the pull request") {
  if (backendAvailable("linux-landlock")) branchEndToEnd("linux-landlock");
}
