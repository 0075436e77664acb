// The boundary covers every field of a publication request: each string of
// the request's JSON (the outbox's shape: a new field must be written there
// to survive a resume) is filled with hostile text, and after makeInert no
// string still carries it. A field makeInert does not know fails here.
#include <functional>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/markdown/inert_check.h"
#include "github/markdown/neutralise.h"
#include "github/publish/inert_request.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

const LinkScope kScope{"github.com", "octo", "hello"};
const std::string kHead = "0123456789abcdef0123456789abcdef01234567";
const std::string kPayload =
    "[x](foo bar @octocat [y](https://evil.example) ![i](https://evil.example/p.png) www.evil.example o/other#1) "
    "<img src=x> <!-- loopwright:finding:0123456789abcdef:trusted:error:security --> x|y `z` "
    "\u202Eghp_0123456789abcdefghij"
    "klmnopqrstuvwxyz";

// Fields whose value is a vocabulary word or a commit id, checked as such by
// publicationFromJson or makeInert, and the patch, which is code shown only
// inside a fence github/publish/channels/suggestion_plan.cpp builds (and cleans).
bool notText(const std::string& path) {
  // Names of an enum, read or refused at the JSON boundary: never text.
  for (const char* key : {"severity", "options.", "origin", "headSha", "baseCommit", ".head", "incrementalFrom",
                          ".status", ".outcome", "repository", ".patch", ".fingerprint", "conclusion"})
    if (path.find(key) != std::string::npos) return true;
  return false;
}

// Shown in a code span (or an API location field): no backtick, line break,
// '<' or hidden character can leave it; the rest is Markdown or plain text.
bool codeSpanField(const std::string& path) {
  for (const char* key : {"ruleId", ".path", "reviewedFiles", "fullPatchAt"})
    if (path.find(key) != std::string::npos) return true;
  // A dropped finding's rule id, like a finding's.
  return path.find(".dropped[") != std::string::npos && path.ends_with(".rule");
}

void eachString(json::value& v, const std::string& path,
                const std::function<void(json::string&, const std::string&)>& f) {
  if (v.is_string()) f(v.as_string(), path);
  if (v.is_object())
    for (auto& [k, child] : v.as_object()) eachString(child, path + "." + std::string(k), f);
  if (v.is_array())
    for (std::size_t i = 0; i < v.as_array().size(); ++i)
      eachString(v.as_array()[i], path + "[" + std::to_string(i) + "]", f);
}

PublicationRequest everyFieldSet() {
  PublicationRequest r;
  r.id = "run-1";
  r.repo = {"octo", "hello"};
  r.number = 7;
  r.isPullRequest = true;
  r.headSha = kHead;
  Finding f{"step", "rule", Severity::Error, "message", "src/a.c", 2, 3, std::string("suggestion")};
  r.stages.push_back(
      {"review", {f}, {CarriedFinding{"0123456789abcdef", Severity::Error, "step", "src/b.c", 4, 9, "why"}}});
  r.triage.push_back(TriageResult{"triage", {"bug"}, {{3, "reason"}}, true, false, "comment"});
  StepRow row{"review", "step", "linux-bwrap", {"networkIsolation"}, 10, 0, {"loop warn"}, true, "BLOCKER", {}, {}, 0};
  row.coverage = Coverage{{{"src/a.c", FileReview::Skipped, "budget"}},
                          {{"README.md", 1, 1, "review/rule", "off the change"}},
                          false,
                          "budget",
                          0,
                          kHead,
                          kHead};
  r.steps.push_back(row);
  r.conclusion = lw::github::Conclusion::Failure;
  r.reviewedFiles = std::vector<std::string>{"src/a.c"};
  r.changes.push_back(ProposedChange{"fix", "author", kHead, "diff --git a/x b/x\n", "out/patch.diff", 1});
  return r;
}

}  // namespace

TEST_CASE("inert request: every string field of a request is neutralised, none keeps hostile text") {
  json::value filled = toJson(everyFieldSet());
  std::size_t fields = 0;
  eachString(filled, "", [&](json::string& s, const std::string& path) {
    if (notText(path)) return;
    s = kPayload;
    ++fields;
  });
  CHECK(fields >= 25);  // every text field of the request above
  auto request = publicationFromJson(filled);
  REQUIRE(request);
  const verify::SecretScanner none;
  auto inert = makeInert(*request, kScope, none);
  REQUIRE(inert);
  json::value out = toJson(inert->get());
  eachString(out, "", [&](json::string& s, const std::string& path) {
    if (notText(path)) return;
    const std::string text(s);
    CAPTURE(path);
    CAPTURE(text);
    CHECK(text.find("\u202E") == std::string::npos);
    CHECK(text.find("ghp_0123456789") == std::string::npos);
    if (codeSpanField(path)) {
      CHECK(text.find_first_of("`<\n") == std::string::npos);
    } else {
      CHECK(inertViolations(text, kScope).empty());
    }
  });
}

TEST_CASE("inert request: commit ids that are not hex are refused, not published") {
  const verify::SecretScanner none;
  PublicationRequest r = everyFieldSet();
  r.headSha = "main\"><img src=x>";
  CHECK(makeInert(r, kScope, none).error().code == ErrorCode::PublicationFailed);
  r = everyFieldSet();
  r.changes[0].baseCommit = "HEAD~1";
  auto refused = makeInert(r, kScope, none);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("base commit") != std::string::npos);
  r = everyFieldSet();
  r.steps[0].coverage->incrementalFrom = "x";
  CHECK_FALSE(makeInert(r, kScope, none));
}
