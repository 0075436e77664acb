// builtin/reproduce's agent with a real workspace and real processes (the
// scripts are the test's own, harmless): it refuses to run an issue's code
// when it was not started by the pipeline, and in a step it runs the
// checkout's HEAD, not what is uncommitted, and removes what the
// reproduction leaves in its out dir before writing triage.json.
#include <doctest/doctest.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <boost/json.hpp>

#include "agents/reproduce/repro_shutout.h"
#include "agents/reproduce/reproduce_agent.h"
#include "integration/pipeline/pipeline_fixture.h"
#include "policy/model/tool_names.h"

using namespace lw;
using namespace lw::test;
namespace json = boost::json;

namespace {

// The bridge of a step granted github.issue only, answering with `body`.
class IssueBridge final : public agents::BridgeClient {
 public:
  explicit IssueBridge(std::string body) : body_(std::move(body)) {}
  Result<json::value> call(const std::string& tool, const json::object&) override {
    if (tool != tools::kGithubIssue) return makeError(ErrorCode::UsageError, "tool " + tool + " is not granted");
    return json::value(json::object{{"number", 7}, {"title", "t"}, {"body", body_}});
  }

 private:
  std::string body_;
};

// LOOPWRIGHT_STEP as the pipeline sets it (or unset), for one scope.
class StepVariable {
 public:
  explicit StepVariable(const char* value) {
    if (value)
      ::setenv("LOOPWRIGHT_STEP", value, 1);
    else
      ::unsetenv("LOOPWRIGHT_STEP");
  }
  ~StepVariable() { ::unsetenv("LOOPWRIGHT_STEP"); }
};

// The agent erases its whole process's environment before a reproduction
// (repro_shutout.h); in this test process it is put back afterwards, on
// the heap (the block stays blank).
class RestoredEnvironment {
 public:
  RestoredEnvironment() {
    for (char** e = environ; *e != nullptr; ++e) saved_.emplace_back(*e);
  }
  ~RestoredEnvironment() {
    // Untouched (the agent ran nothing): environ still points into the
    // block, which a later agent must find and erase.
    if (environ != nullptr && *environ != nullptr) return;
    for (const std::string& entry : saved_) {
      const std::size_t eq = entry.find('=');
      if (eq != std::string::npos) ::setenv(entry.substr(0, eq).c_str(), entry.substr(eq + 1).c_str(), 1);
    }
  }

 private:
  std::vector<std::string> saved_;
};

struct AgentRun {
  int status = 0;
  json::object triage;
  std::string log;
};

AgentRun runAgent(const fs::path& workspace, const fs::path& outDir, const std::string& body) {
  IssueBridge bridge(body);
  const json::object params{{"wallTimeMs", 10000}};
  std::ostringstream log;
  agents::AgentContext ctx{bridge, params, workspace, outDir, log};
  AgentRun r;
  RestoredEnvironment restored;
  r.status = agents::runReproduceAgent(ctx);
  r.log = log.str();
  if (fs::exists(outDir / "triage.json")) r.triage = json::parse(readFile(outDir / "triage.json")).as_object();
  return r;
}

}  // namespace

TEST_CASE("reproduce agent: not started by the pipeline for a step, it runs nothing of the issue") {
  TempDir s;
  makeRepo(s.root / "repo", {{"README.md", "hello\n"}});
  fs::create_directories(s.root / "out");
  const fs::path marker = s.root / "ran";
  StepVariable unset(nullptr);
  const AgentRun r = runAgent(s.root / "repo", s.root / "out", "```sh\ntouch " + marker.string() + "\n```\n");
  INFO(r.log);
  CHECK(r.status == 0);
  CHECK_FALSE(fs::exists(marker));
  CHECK(std::string(r.triage.at("comment").as_string())
            .starts_with("**Reproduction:** could not run: it was not started by the pipeline for a step"));
  CHECK(r.triage.at("labels") == json::array{"needs-repro"});
}

TEST_CASE("reproduce agent: in a step it runs the checkout's HEAD and leaves its out dir as it found it") {
  TempDir s;
  const fs::path repo = s.root / "repo";
  makeRepo(repo, {{"version.txt", "committed\n"}});
  writeFile(repo / "version.txt", "uncommitted\n");
  fs::create_directories(s.root / "out");
  StepVariable step("triage/reproduce");
  const AgentRun r = runAgent(repo, s.root / "out",
                              "### Steps to reproduce\n\n```bash\ncat version.txt\n"
                              "echo '{\"findings\": []}' > ../../findings.json\nmkdir ../../left\nexit 2\n```\n");
  INFO(r.log);
  CHECK(r.status == 0);
  const std::string comment(r.triage.at("comment").as_string());
  CHECK(comment.find("reproduced: it exited with status 2") != std::string::npos);
  CHECK(comment.find("\ncommitted\n") != std::string::npos);
  CHECK(comment.find("uncommitted") == std::string::npos);
  CHECK(r.triage.at("reproducible") == true);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(s.root / "out")) left.push_back(e.path().filename().string());
  CHECK(left == std::vector<std::string>{"triage.json"});
  CHECK(readFile(repo / "version.txt") == "uncommitted\n");
}

TEST_CASE("reproduce agent: a bridge reached by a socket path is unlinked before the reproduction can connect") {
  TempDir s;
  makeRepo(s.root / "repo", {{"README.md", "hello\n"}});
  fs::create_directories(s.root / "out");
  // The bridge as a path-named socket (the secondary form of bridge/server.h), listening.
  const fs::path socketPath = s.root / "out/bridge.sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", socketPath.c_str());
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 4) == 0);
  ::setenv("LOOPWRIGHT_BRIDGE", socketPath.c_str(), 1);
  StepVariable step("triage/reproduce");
  const AgentRun r = runAgent(s.root / "repo", s.root / "out",
                              "```python\nimport socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n"
                              "    s.connect('" +
                                  socketPath.string() +
                                  "')\n    print('connected to the bridge')\n"
                                  "except OSError as e:\n    print('no bridge: %s' % e.strerror)\n```\n");
  ::unsetenv("LOOPWRIGHT_BRIDGE");
  INFO(r.log);
  pollfd pending{listener, POLLIN, 0};
  CHECK(::poll(&pending, 1, 0) == 0);
  ::close(listener);
  const std::string comment(r.triage.at("comment").as_string());
  CHECK(comment.find("no bridge: No such file or directory") != std::string::npos);
  CHECK(comment.find("connected to the bridge") == std::string::npos);
}

TEST_CASE("reproduce shut-out: the environment other processes can read is blank and getenv finds nothing") {
  RestoredEnvironment restored;
  ::setenv("LW_SHUTOUT_ADDED", "added-after-start", 1);  // a variable set later, outside the block
  std::ostringstream log;
  const Status shut = agents::reproduce::shutOutTheReproduction("", log);
  INFO(log.str());
  REQUIRE(shut);
  CHECK(std::getenv("PATH") == nullptr);
  CHECK(std::getenv("LW_SHUTOUT_ADDED") == nullptr);
  // What another process reads as this one's environment.
  const std::string block = readFile("/proc/" + std::to_string(::getpid()) + "/environ");
  INFO("left in the block: " << std::string(
           block.begin(), std::find_if(block.rbegin(), block.rend(), [](char c) { return c != '\0'; }).base()));
  CHECK_FALSE(block.empty());
  CHECK(block.find_first_not_of('\0') == std::string::npos);
}

// The environment block's bounds in this process, from /proc/self/stat
// (env_start and env_end, its fields 50 and 51 since Linux 3.5).
std::pair<char*, char*> environmentBlock() {
  const std::string stat = readFile("/proc/self/stat");
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  std::uintptr_t start = 0, end = 0;
  for (int i = 3; i <= 51 && fields >> field; ++i) {
    if (i == 50) start = std::stoull(field);
    if (i == 51) end = std::stoull(field);
  }
  return {reinterpret_cast<char*>(start), reinterpret_cast<char*>(end)};
}

TEST_CASE("reproduce shut-out: what environ no longer points to but the block still holds makes it refuse") {
  RestoredEnvironment restored;
  const auto [start, end] = environmentBlock();
  REQUIRE(end - start > 16);
  // A variable replaced or removed after the start: environ points
  // elsewhere, the block keeps the first string.
  std::string kept = "LEFT=behind";
  std::memcpy(start, kept.c_str(), kept.size() + 1);
  std::ostringstream log;
  const Status shut = agents::reproduce::shutOutTheReproduction("", log);
  std::memset(start, 0, kept.size());  // the agents run after this test need a blank block
  REQUIRE_FALSE(shut);
  CHECK(shut.error().code == ErrorCode::IoError);
  CHECK(shut.error().message.starts_with("the agent's environment could not be erased"));
}
