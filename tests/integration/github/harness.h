// Shared set-up for the publication tests against the fake GitHub server:
// a fake clock and a sleeper that only advances it (no test really waits),
// the real libcurl transport, a temporary state directory, and requests.
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/http_curl.h"
#include "github/publish/channels/publisher.h"
#include "github/publish/outbox.h"
#include "github/rest/rest_client.h"
#include "support/fake_github.h"

namespace lw::test {

class FakeClock final : public github::WallClock {
 public:
  std::chrono::system_clock::time_point now() const override { return t; }
  std::chrono::system_clock::time_point t{std::chrono::seconds(1'700'000'000)};
};

class RecordingSleeper final : public github::Sleeper {
 public:
  explicit RecordingSleeper(FakeClock& c) : clock(c) {}
  void sleepFor(std::chrono::milliseconds d) override {
    sleeps.push_back(d);
    clock.t += d;
  }
  // Sleeps other than the 1 s pacing between writes.
  std::vector<std::chrono::milliseconds> longSleeps() const {
    std::vector<std::chrono::milliseconds> out;
    for (auto d : sleeps)
      if (d > std::chrono::milliseconds(1000)) out.push_back(d);
    return out;
  }
  FakeClock& clock;
  std::vector<std::chrono::milliseconds> sleeps;
};

struct TempDir {
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lw-github-XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
  std::string path;
};

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline constexpr const char* kHeadSha = "0123456789abcdef0123456789abcdef01234567";
// The heads of later pushes to the same pull request.
inline const std::string kHead2 = "89abcdef0123456789abcdef0123456789abcdef";
inline const std::string kHead3 = "fedcba9876543210fedcba9876543210fedcba98";

// src/app.c: new lines 1-12 and 49-54 are in hunks; docs/guide.md: 1-5 (new file).
inline constexpr const char* kDiff =
    "diff --git a/src/app.c b/src/app.c\n"
    "index 1111111..2222222 100644\n"
    "--- a/src/app.c\n"
    "+++ b/src/app.c\n"
    "@@ -1,3 +1,12 @@\n"
    " line1\n+a2\n+a3\n+a4\n+a5\n+a6\n+a7\n+a8\n+a9\n+a10\n line11\n line12\n"
    "@@ -40,2 +49,6 @@ int main(void)\n"
    " c49\n+a50\n+a51\n+a52\n+a53\n c54\n"
    "diff --git a/docs/guide.md b/docs/guide.md\n"
    "new file mode 100644\n"
    "--- /dev/null\n"
    "+++ b/docs/guide.md\n"
    "@@ -0,0 +1,5 @@\n"
    "+g1\n+g2\n+g3\n+g4\n+g5\n";

struct Harness {
  Harness() : sleeper(clock), outbox(state.path) {
    gh.addPull(7, kHeadSha, kDiff);
    github::RestConfig config;
    config.apiUrl = gh.url();
    config.token = FakeGithub::kToken;
    config.timeout = std::chrono::milliseconds(2000);
    client = std::make_unique<github::RestClient>(transport, clock, sleeper, config, &log);
    publisherConfig.stepSummaryPath = state / "summary.md";
    publisherConfig.outputPath = state / "output.txt";
  }

  github::Publisher publisher(github::DiffSource* diff = nullptr) {
    return github::Publisher(*client, outbox, publisherConfig, log, diff);
  }

  // Requests that change state on the server.
  std::size_t writes() const {
    std::size_t n = 0;
    for (const auto& r : gh.requests()) n += r.method != "GET";
    return n;
  }

  FakeGithub gh;
  FakeClock clock;
  RecordingSleeper sleeper;
  http::CurlTransport transport{github::httpPolicy()};
  TempDir state;
  std::ostringstream log;
  std::unique_ptr<github::RestClient> client;
  github::Outbox outbox;
  github::PublisherConfig publisherConfig;
};

inline Finding finding(Severity sev, std::string path, int line, std::string message, std::string step = "security",
                       std::string rule = "sec/rule", int endLine = 0) {
  Finding f;
  f.step = std::move(step);
  f.ruleId = std::move(rule);
  f.severity = sev;
  f.message = std::move(message);
  f.path = std::move(path);
  f.line = line;
  f.endLine = endLine;
  return f;
}

inline github::PublicationRequest prRequest(std::vector<github::StageResult> stages, std::string id = "run-1") {
  github::PublicationRequest r;
  r.id = std::move(id);
  r.repo = {FakeGithub::kOwner, FakeGithub::kRepo};
  r.number = 7;
  r.isPullRequest = true;
  r.headSha = kHeadSha;
  r.stages = std::move(stages);
  r.conclusion = lw::github::Conclusion::Failure;
  r.steps.push_back(github::StepRow{.stage = "review",
                                    .step = "security",
                                    .backend = "linux-bwrap",
                                    .capabilities = {"networkIsolation", "syscallFiltering"},
                                    .durationMs = 1500,
                                    .exitCode = 0,
                                    .guardrailEvents = {"loop warn: github.pulls.diff x3"},
                                    .blocked = false,
                                    .blocker = {}});
  return r;
}

}  // namespace lw::test
