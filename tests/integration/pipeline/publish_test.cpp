#include <doctest/doctest.h>

#include <sys/wait.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"

using namespace lw::test;

namespace {

const std::string kExampleDir = std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/review";

// Rewrites the example's event as the fake GitHub's octo/hello#1 into
// root/event.json; returns the pull request's head SHA.
std::string asFakePullRequest(const fs::path& root, const fs::path& repo) {
  std::string event = readFile(root / "repo.event.json");
  for (auto [from, to] : {std::pair{"example/review", "octo/hello"},
                          {"\"login\": \"example\"", "\"login\": \"octo\""},
                          {"\"name\": \"review\"", "\"name\": \"hello\""}})
    for (auto at = event.find(from); at != std::string::npos; at = event.find(from, at + 1))
      event.replace(at, std::string(from).size(), to);
  writeFile(root / "event.json", event);
  std::string head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
  head.pop_back();
  return head;
}

}  // namespace

TEST_CASE(
    "run --publish github: one review on the diff lines, a check run, summary and outputs, a re-run posts nothing "
    "new") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::path repo = s.root / "repo";
  REQUIRE(sh(kExampleDir + "/make-repo.sh " + repo.string()) == 0);
  std::string head = asFakePullRequest(s.root, repo);
  std::string diff = capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD");

  FakeGithub github;
  github.addPull(1, head, diff);
  auto env = hostEnv(s.root);
  env["GITHUB_API_URL"] = github.url();
  env["GITHUB_TOKEN"] = FakeGithub::kToken;
  env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
  env["GITHUB_OUTPUT"] = (s.root / "output.txt").string();
  env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
  fs::create_directories(s.root / "runner-temp");
  auto run = [&](const std::string& out) {
    return runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path",
                   (s.root / "event.json").string(), "--out", (s.root / out).string(), "--publish", "github"},
                  env);
  };

  auto first = run("out1");
  INFO(first.out << first.err);
  CHECK(first.status == 4);  // the looper is stopped by design
  auto reviews = github.reviews(1);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("commit_id").as_string() == head);
  auto comments = github.reviewComments(1);
  REQUIRE(comments.size() == 2);
  for (const auto& c : comments) CHECK(c.at("path").as_string() == "src/greet.py");
  CHECK(github.checkRuns().size() == 1);
  std::string summary = readFile(s.root / "summary.md");
  CHECK(summary.find("looper") != std::string::npos);
  CHECK(summary.find("linux-bwrap") != std::string::npos);
  CHECK(summary.find("BLOCKER") != std::string::npos);
  CHECK(!readFile(s.root / "output.txt").empty());

  github.clearRequests();
  auto second = run("out2");
  INFO(second.out << second.err);
  CHECK(github.reviews(1).size() == 1);
  CHECK(github.reviewComments(1).size() == 2);
  CHECK(github.count("POST", "/reviews") == 0);
  CHECK(github.count("POST", "/comments") == 0);
  CHECK(github.checkRuns().size() == 1);
}

TEST_CASE("action: the entrypoint with a recorded event and GITHUB_* variables publishes once and sets the outputs") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::path repo = s.root / "repo";
  REQUIRE(sh(kExampleDir + "/make-repo.sh " + repo.string()) == 0);
  std::string head = asFakePullRequest(s.root, repo);
  FakeGithub github;
  github.addPull(1, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
  fs::create_directories(s.root / "runner-temp");
  std::string env =
      "env -i PATH=/usr/bin:/bin HOME=/root GITHUB_ACTIONS=true CI=true"
      " GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH=" +
      (s.root / "event.json").string() + " GITHUB_WORKSPACE=" + repo.string() + " GITHUB_API_URL=" + github.url() +
      " GITHUB_TOKEN=" + FakeGithub::kToken + " GITHUB_RUN_ID=77 GITHUB_RUN_ATTEMPT=1 GITHUB_JOB=review" +
      " RUNNER_TEMP=" + (s.root / "runner-temp").string() + " GITHUB_OUTPUT=" + (s.root / "output.txt").string() +
      " GITHUB_STEP_SUMMARY=" + (s.root / "summary.md").string() +
      " LOOPWRIGHT_HOST_CONFIG=" + hostEnv(s.root).begin()->second +
      " LOOPWRIGHT_BIN=" LOOPWRIGHT_BIN " LW_PUBLISH=github LW_FAIL_ON=error";
  int status = sh(env + " bash " LOOPWRIGHT_SOURCE_DIR "/dist/entrypoint.sh >" + (s.root / "log").string() + " 2>&1");
  INFO(readFile(s.root / "log"));
  CHECK(WEXITSTATUS(status) == 4);
  CHECK(github.reviews(1).size() == 1);
  CHECK(github.reviewComments(1).size() == 2);
  CHECK(github.checkRuns().size() == 1);
  std::string outputs = readFile(s.root / "output.txt");
  CHECK(outputs.find("findings-count<<") != std::string::npos);
  CHECK(outputs.find("blocked-steps<<") != std::string::npos);
  CHECK(outputs.find("review/looper") != std::string::npos);
  CHECK(outputs.find("run-json<<") != std::string::npos);
  // The run is this job's alone: run id, attempt, job and process.
  int runDirs = 0;
  for (const auto& d : fs::directory_iterator(s.root / "runner-temp/loopwright")) {
    ++runDirs;
    CHECK(d.path().filename().string().rfind("77-1-review-", 0) == 0);
    CHECK(fs::exists(d.path() / "run.json"));
  }
  CHECK(runDirs == 1);
}

// docs/egress.md, "When a connection is denied": a built-in cannot read the
// proxy's 403, so its denials are its own findings. builtin/lint runs curl
// to a host its allow-list lacks; the denial reaches the published output.
TEST_CASE("run --publish github: a built-in step's denied egress connection is published as an egress/denied notice") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::copy(kExampleDir, s.root / "example", fs::copy_options::recursive);
  writeFile(
      s.root / "example/.loopwright/taskpack.yaml",
      taskpack("    - name: review\n      on: [pull_request.opened]\n      steps:\n"
               "        - name: fetch\n"
               "          uses: builtin/lint\n"
               "          sandbox:\n"
               "            preferredBackends: [linux-bwrap]\n"
               "            networkMode: allow-list\n"
               "            egress: [packages.example.org]\n"
               "          with:\n"
               "            command: [sh, -c, 'curl -s -o /dev/null --max-time 10 https://denied.example/; true']\n"
               "            format: pattern\n"
               "            pattern: '%f:%l:%m'\n"
               "            filterMode: nofilter\n",
               "") +
          "  publication: {review: comment, checks: true, summary: true, failOn: error}\n");
  fs::path repo = s.root / "repo";
  REQUIRE(sh((s.root / "example/make-repo.sh").string() + " " + repo.string()) == 0);
  std::string head = asFakePullRequest(s.root, repo);
  FakeGithub github;
  github.addPull(1, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
  auto env = hostEnv(s.root);
  env["GITHUB_API_URL"] = github.url();
  env["GITHUB_TOKEN"] = FakeGithub::kToken;
  env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
  auto r = runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path",
                   (s.root / "event.json").string(), "--out", (s.root / "out").string(), "--publish", "github"},
                  env);
  INFO(r.out << r.err);
  const std::string denial = "denied.example:443";
  auto step = stepOf(runJson(s.root / "out"), "fetch");
  INFO(boost::json::serialize(step));
  REQUIRE(step.at("egress").as_array().size() == 1);
  CHECK(step.at("egress").as_array()[0].at("allowed") == false);
  CHECK(r.out.find("    egress denied " + denial + ": " + denial + " is not in the step's egress list\n") !=
        std::string::npos);
  // Published: the review, the check run, and the step summary name it.
  std::string published;
  for (const auto& review : github.reviews(1)) published += boost::json::serialize(review);
  for (const auto& run : github.checkRuns()) published += boost::json::serialize(run);
  INFO(published);
  CHECK(published.find("egress/denied") != std::string::npos);
  CHECK(published.find(denial) != std::string::npos);
  const std::string summary = readFile(s.root / "summary.md");
  INFO(summary);
  CHECK(summary.find("egress/denied") != std::string::npos);
}
