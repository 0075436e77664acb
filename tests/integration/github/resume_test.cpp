#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "harness.h"

extern char** environ;

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

// Starts the real binary with a clean environment pointing at the fake.
pid_t spawnLoopwright(const std::vector<std::string>& args, const std::vector<std::string>& env,
                      const std::string& stderrFile = "/dev/null") {
  std::vector<std::string> argv{LOOPWRIGHT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> a, e;
  for (auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  for (auto& s : env) e.push_back(const_cast<char*>(s.c_str()));
  e.push_back(nullptr);
  pid_t pid = 0;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int rc = posix_spawn(&pid, LOOPWRIGHT_BIN, &fa, nullptr, a.data(), e.data());
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  return pid;
}

int waitExit(pid_t pid) {
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The request as `publish --request` reads it, in the state directory.
std::string writeRequest(const Harness& h, const PublicationRequest& request) {
  std::string file = h.state / "request.json";
  std::ofstream(file) << json::serialize(toJson(request));
  return file;
}

// A clean environment pointing at the fake.
std::vector<std::string> publishEnv(const Harness& h) {
  return {"GITHUB_API_URL=" + h.gh.url(), std::string("GITHUB_TOKEN=") + FakeGithub::kToken, "PATH=/usr/bin:/bin"};
}

// True once a scripted hang holds exactly one request (20 s at most).
bool waitForHang(const Harness& h) {
  for (int i = 0; i < 400 && h.gh.hanging() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return h.gh.hanging() == 1;
}

}  // namespace

TEST_CASE("resume: a publication killed mid-way is finished by `publish --resume` without duplicates") {
  Harness h;
  std::vector<Finding> findings;
  for (int i = 0; i < 120; ++i)
    findings.push_back(finding(Severity::Warning, "lib/f" + std::to_string(i) + ".c", 3, "w"));
  findings.push_back(finding(Severity::Error, "src/app.c", 2, "inline one"));
  PublicationRequest request = prRequest({StageResult{"lint", findings}}, "killed-run");
  const std::string requestFile = writeRequest(h, request);
  const std::vector<std::string> env = publishEnv(h);
  // The second annotation PATCH never gets an answer: the process is killed there.
  h.gh.script({.method = "PATCH",
               .pathContains = "/check-runs/",
               .skip = 1,
               .times = 1,
               .status = 0,
               .headers = {},
               .body = {},
               .hang = true});
  pid_t pid = spawnLoopwright({"publish", "--request", requestFile, "--state-dir", h.state.path}, env);
  REQUIRE(waitForHang(h));
  REQUIRE(kill(pid, SIGKILL) == 0);
  CHECK(waitExit(pid) == 128 + SIGKILL);
  h.gh.releaseHangs();

  // What the killed process left: the review posted, the check run half done.
  auto pending = h.outbox.pending();
  REQUIRE(pending.ok());
  REQUIRE(pending->size() == 1);
  CHECK((*pending)[0].progress.reviewDone);
  CHECK((*pending)[0].progress.checks.at("lint").id != 0);
  CHECK_FALSE((*pending)[0].progress.checks.at("lint").done);
  REQUIRE(h.gh.checkRuns().size() == 1);
  std::int64_t runId = h.gh.checkRuns()[0].at("id").as_int64();
  CHECK(h.gh.annotations(runId).size() == 50);

  pid = spawnLoopwright({"publish", "--resume", "--state-dir", h.state.path}, env);
  CHECK(waitExit(pid) == 0);
  CHECK(h.gh.reviews(7).size() == 1);
  CHECK(h.gh.reviewComments(7).size() == 1);
  REQUIRE(h.gh.checkRuns().size() == 1);
  CHECK(h.gh.checkRuns()[0].at("status") == "completed");
  CHECK(h.gh.annotations(runId).size() == 121);
  CHECK(h.outbox.pending()->empty());

  // Once more: nothing pending, nothing written.
  h.gh.clearRequests();
  pid = spawnLoopwright({"publish", "--resume", "--state-dir", h.state.path}, env);
  CHECK(waitExit(pid) == 0);
  CHECK(h.writes() == 0);
}

TEST_CASE("resume: publish without --resume, --request or --from-artifact is a usage error") {
  TempDir dir;
  pid_t pid = spawnLoopwright({"publish"}, {"PATH=/usr/bin:/bin"}, dir / "stderr");
  CHECK(waitExit(pid) == 2);
  CHECK(readFile(dir / "stderr") ==
        "loopwright: error[USAGE_ERROR]: give exactly one of --resume, --request FILE and --from-artifact DIR\n"
        "hint: loopwright publish --resume [--state-dir DIR]\n");
}

TEST_CASE("resume: a publication another process is publishing is left to it") {
  Harness h;
  PublicationRequest request =
      prRequest({StageResult{"lint", {finding(Severity::Error, "src/app.c", 2, "e")}}}, "busy-run");
  const std::string requestFile = writeRequest(h, request);
  const std::vector<std::string> env = publishEnv(h);
  // The first publisher hangs on its check run, holding its claim.
  h.gh.script({.method = "POST",
               .pathContains = "/check-runs",
               .skip = 0,
               .times = 1,
               .status = 0,
               .headers = {},
               .body = {},
               .hang = true});
  pid_t first = spawnLoopwright({"publish", "--request", requestFile, "--state-dir", h.state.path}, env);
  REQUIRE(waitForHang(h));
  const std::size_t writesBefore = h.writes();

  std::string log = h.state / "resume.log";
  // --json: the progress lines go to stderr, into the log.
  pid_t second = spawnLoopwright({"publish", "--resume", "--state-dir", h.state.path, "--json"}, env, log);
  CHECK(waitExit(second) == 0);
  CHECK(h.writes() == writesBefore);  // it touched nothing
  CHECK(readFile(log).find("publication busy-run is being published by another process") != std::string::npos);

  h.gh.releaseHangs();
  CHECK(waitExit(first) == 0);
  CHECK(h.gh.reviews(7).size() == 1);
  CHECK(h.gh.checkRuns().size() == 1);
  CHECK(h.outbox.pending()->empty());
}

TEST_CASE("resume: a run resumes only its own repository's publications") {
  Harness h;
  PublicationRequest other =
      prRequest({StageResult{"lint", {finding(Severity::Error, "src/app.c", 2, "e")}}}, "other-run");
  other.repo = {"someone-else", "their-repo"};
  REQUIRE(h.outbox.enqueue(other).ok());
  PublicationRequest mine =
      prRequest({StageResult{"lint", {finding(Severity::Error, "src/app.c", 2, "e")}}}, "my-earlier-run");
  REQUIRE(h.outbox.enqueue(mine).ok());

  auto resumed = h.publisher().resumeAll(RepoRef{FakeGithub::kOwner, FakeGithub::kRepo});
  REQUIRE(resumed.ok());
  REQUIRE(resumed->size() == 1);
  CHECK((*resumed)[0].id == "my-earlier-run");
  auto left = h.outbox.pending();
  REQUIRE(left.ok());
  REQUIRE(left->size() == 1);
  CHECK((*left)[0].request.id == "other-run");
}
