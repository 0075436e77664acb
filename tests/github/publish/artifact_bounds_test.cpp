#include <fstream>
#include <functional>
#include <sstream>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/artifact_bounds.h"
#include "github/publish/run_artifact.h"
#include "policy/load/taskpack_loader.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

constexpr const char* kHead = "0123456789abcdef0123456789abcdef01234567";

// Two stages on pull_request (the second only on opened, still a
// pull_request stage), one on issues that a pull_request run never has.
std::string baseTaskpack(const std::string& publication) {
  return R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: base}
spec:
  limits: {maxOutputBytes: 4096}
  stages:
    - name: review
      on: [pull_request]
      steps:
        - {name: lint, run: [./lint.sh]}
        - {name: security, run: [./security.sh], limits: {maxOutputBytes: 8192}}
    - name: fix
      on: [pull_request.opened]
      steps:
        - {name: author, run: [./fix.sh], role: author, writable: ["src/**"]}
    - name: triage
      on: [issues.opened]
      steps:
        - {name: label, run: [./label.sh], role: triage}
  publication: )" +
         publication + "\n";
}

Taskpack parsed(const std::string& text) {
  auto t = parseTaskpack(text, "base.yaml", TaskpackLoadOptions{});
  INFO((t ? std::string() : t.error().message));
  REQUIRE(t.ok());
  return *t;
}

ArtifactCaps capsWith(const std::string& publication) {
  return artifactCapsOf(parsed(baseTaskpack(publication)), "pull_request");
}

ArtifactCaps defaultCaps() { return capsWith("{failOn: error, maxInlineComments: 3}"); }

Finding finding(const std::string& step, Severity severity = Severity::Warning) {
  Finding f;
  f.step = step;
  f.ruleId = "x/y";
  f.severity = severity;
  f.message = "look here";
  return f;
}

StepRow row(const std::string& stage, const std::string& step) {
  StepRow r;
  r.stage = stage;
  r.step = step;
  r.outcome = StepOutcome::Passed;
  return r;
}

// A request a run of the base taskpack could have written.
PublicationRequest withinCaps() {
  PublicationRequest r;
  r.id = "workflow-run-1-1";
  r.repo = {"octo", "hello"};
  r.number = 7;
  r.isPullRequest = true;
  r.headSha = kHead;
  r.conclusion = lw::github::Conclusion::Success;
  r.stages = {{"review", {finding("lint"), finding("security")}}, {"fix", {}}};
  r.steps = {row("review", "lint"), row("review", "security"), row("fix", "author")};
  r.changes = {ProposedChange{"fix", "author", kHead, "diff --git a/src/x b/src/x\n", "", 0}};
  return r;
}

std::string described(const std::vector<CapExceeded>& over) {
  std::string out;
  for (const auto& c : over) out += c.cap + ": " + c.detail + "\n";
  return out;
}

}  // namespace

TEST_CASE("artifact bounds: the caps are the base taskpack's stages on the event, their steps and limits") {
  ArtifactCaps caps = defaultCaps();
  CHECK(caps.event == "pull_request");
  REQUIRE(caps.stages.size() == 2);  // not triage: it runs on issues
  CHECK(caps.stages.at("review") == std::map<std::string, bool>{{"lint", false}, {"security", false}});
  CHECK(caps.stages.at("fix") == std::map<std::string, bool>{{"author", true}});
  CHECK(caps.steps == 3);
  CHECK(caps.findingsPerStep == 1000);
  CHECK(caps.changes == 1);
  CHECK(caps.bytes == kMaxArtifactRequestBytes);  // the author's patch may be as large as an artifact
  CHECK(caps.options.maxInlineComments == 3);

  ArtifactCaps noPatches = capsWith("{patches: none}");
  CHECK(noPatches.changes == 0);
  CHECK(noPatches.bytes == kRequestByteAllowance + (2 * 4096 + kStepByteAllowance) + (2 * 8192 + kStepByteAllowance) +
                               (2 * 4096 + kStepByteAllowance));
  CHECK(capsWith("{patches: branch}").changes == 0);
}

TEST_CASE("artifact bounds: a step's findings are capped as the findings schema caps one findings.json") {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/schemas/findings.schema.json");
  std::stringstream text;
  text << in.rdbuf();
  json::value schema = json::parse(text.str());
  CHECK(schema.at("properties").at("findings").at("maxItems").to_number<std::size_t>() == kMaxFindingsPerStep);
}

TEST_CASE("artifact bounds: each cap an artifact exceeds is named with its numbers") {
  struct Case {
    const char* name;
    std::function<void(PublicationRequest&)> change;
    std::string caps;  // the base taskpack's publication
    std::size_t bytes;
    std::string says;  // "" when within the caps
  };
  const std::string plain = "{failOn: error}";
  const std::size_t small = 2000;
  const std::vector<Case> cases = {
      {"within the caps", [](auto&) {}, plain, small, ""},
      {"a step with exactly the findings one findings.json may hold",
       [](auto& r) { r.stages[0].findings.assign(1000, finding("lint")); }, plain, small, ""},
      {"more stages than the base runs",
       [](auto& r) {
         r.stages.push_back({"extra", {}});
       },
       plain, small, "stages: 3 stages; the base taskpack runs 2 on pull_request\n"},
      {"a stage that does not run on pull_request", [](auto& r) { r.stages[1].name = "triage"; }, plain, small,
       "stages: stage 'triage' is not one the base taskpack runs on pull_request\n"},
      {"a stage twice",
       [](auto& r) {
         r.stages[1] = {"review", {}};
       },
       plain, small, "stages: stage 'review' appears twice\n"},
      {"more step rows than the base has steps", [](auto& r) { r.steps.push_back(row("review", "lint")); }, plain,
       small, "steps: 4 step rows; the base taskpack's stages on pull_request have 3 steps\n"},
      {"a step row of a step the base does not have", [](auto& r) { r.steps[1] = row("review", "style"); }, plain,
       small, "steps: step row 'review/style' is not a step of the base taskpack\n"},
      {"a step row twice", [](auto& r) { r.steps[1] = row("review", "lint"); }, plain, small,
       "steps: step row 'review/lint' appears twice\n"},
      {"a finding of a step its stage does not have",
       [](auto& r) { r.stages[0].findings.push_back(finding("author")); }, plain, small,
       "findings: a finding of stage 'review' names step 'author', which that stage of the base taskpack does not "
       "have\n"},
      {"more findings in a step than one findings.json may hold",
       [](auto& r) { r.stages[0].findings.assign(1001, finding("security")); }, plain, small,
       "findings: step 'review/security' has 1001 findings; a step reports at most 1000\n"},
      {"more changes than author steps", [](auto& r) { r.changes.push_back(r.changes[0]); }, plain, small,
       "changes: 2 proposed changes; the base taskpack has 1 author steps on pull_request\n"},
      {"a change of a step that is no author",
       [](auto& r) { r.changes[0].stage = "review", r.changes[0].step = "lint"; }, plain, small,
       "changes: a change of 'review/lint', not an author step of the base taskpack\n"},
      {"a change when the base pushes branches", [](auto&) {}, "{patches: branch}", small,
       "changes: 1 proposed changes; the base taskpack pushes changes as a branch, never from an artifact\n"},
      {"a change when the base publishes none", [](auto&) {}, "{patches: none}", small,
       "changes: 1 proposed changes; the base taskpack publishes no changes (publication.patches: none)\n"},
      {"more bytes than the base's steps allow", [](auto& r) { r.changes.clear(); }, "{patches: none}",
       kRequestByteAllowance + 3 * kStepByteAllowance + 4 * 4096 + 2 * 8192 + 1,
       "bytes: publication.json is 3244033 bytes; the base taskpack's steps allow 3244032\n"},
      {"every kind at once",
       [](auto& r) {
         r.stages.resize(5);
         r.steps.resize(9);
       },
       "{patches: none}", 9u << 20,
       "stages: 5 stages; the base taskpack runs 2 on pull_request\n"
       "steps: 9 step rows; the base taskpack's stages on pull_request have 3 steps\n"
       "changes: 1 proposed changes; the base taskpack publishes no changes (publication.patches: none)\n"
       "bytes: publication.json is 9437184 bytes; the base taskpack's steps allow 3244032\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    PublicationRequest r = withinCaps();
    c.change(r);
    const ArtifactCaps caps = capsWith(c.caps);
    CHECK(described(capsExceeded(shapeOf(r, c.bytes), caps)) == c.says);
    // The same read from publication.json's document, before a request is built.
    CHECK(described(capsExceeded(shapeOf(toJson(r), c.bytes), caps)) == c.says);
  }
}

TEST_CASE("artifact bounds: over a cap the request is refused, naming the cap and its numbers") {
  PublicationRequest r = withinCaps();
  r.stages[0].findings.assign(100'000, finding("lint"));
  auto refused = boundByBaseTaskpack(r, 6u << 20, defaultCaps());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::PublicationFailed);
  CHECK(refused.error().message ==
        "the artifact was not published: it is over the base taskpack's caps (findings: step 'review/lint' has "
        "100000 findings; a step reports at most 1000)");
  CHECK(refused.error().hint.find("docs/fork-pull-requests.md") != std::string::npos);
}

TEST_CASE("artifact bounds: the publication options and the conclusion are the base taskpack's, not the artifact's") {
  PublicationRequest r = withinCaps();
  r.stages[0].findings = {finding("lint", Severity::Error)};
  // What a fork's job would claim to publish everything, fail nothing.
  r.options.failOn = FailOn::Never;
  r.options.review = ReviewMode::RequestChanges;
  r.options.checks = false;
  r.options.summary = false;
  r.options.maxInlineComments = 1200;
  r.options.patches = PatchPublication::Branch;
  r.conclusion = lw::github::Conclusion::Success;

  auto bounded = boundByBaseTaskpack(
      r, 2000, capsWith("{review: comment, checks: true, summary: true, failOn: error, maxInlineComments: 3}"));
  REQUIRE(bounded.ok());
  CHECK(bounded->options.failOn == FailOn::Error);
  CHECK(bounded->options.review == ReviewMode::Comment);
  CHECK(bounded->options.checks);
  CHECK(bounded->options.summary);
  CHECK(bounded->options.maxInlineComments == 3);
  CHECK(bounded->options.patches == PatchPublication::Suggestions);
  CHECK(bounded->conclusion == Conclusion::Failure);  // an error finding fails under failOn: error
}
