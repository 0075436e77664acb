// builtin/reproduce end to end on examples/triage: `loopwright run
// --publish github` on an issues event, the agent in its sandbox — as the
// example writes it (L3, which linux-gvisor gives here) or with the step's
// isolation lowered to L1 explicitly (linux-bwrap, linux-landlock) — running
// the issue's reproduction against the example project, the verdict
// published as the triage result, a label and the comment. The hostile
// issues of the example try to read the runner's token, reach the network
// and fork-bomb: each is contained and reported, and the runner is left as
// it was.
#include <doctest/doctest.h>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include <boost/json.hpp>

#include <cmark-gfm.h>

#include "github/markdown/markdown_tree.h"
#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const fs::path kExample = fs::path(LOOPWRIGHT_SOURCE_DIR) / "examples/triage";
constexpr int kIssue = 21;

bool bwrapWorks() { return sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0; }
bool runscInstalled() { return sh("command -v runsc >/dev/null 2>&1") == 0; }

// The example's reproduce step as the example writes it, with `lowering`
// (the step's own keys) and `with` in place of its own.
std::string reproduceStep(const std::string& lowering, const std::string& with) {
  return "    - name: triage\n      on: [issues]\n      steps:\n"
         "        - name: reproduce\n          uses: builtin/reproduce\n" +
         lowering + "          limits: {wallTimeMs: 120000, pids: 64, memory: 512MiB}\n          with: " + with + "\n";
}

// The step's own keys lowering it to L1 on `backend`, networkMode still none.
std::string lowered(const std::string& backend) {
  return "          isolation: L1\n          sandbox: {preferredBackends: [" + backend + "]}\n";
}
const std::string kLowered = lowered("linux-bwrap");
// The example's own keys: L3, which only linux-gvisor gives (where its probe saw another kernel).
const std::string kAsWritten = "          isolation: L3\n          sandbox: {networkMode: none}\n";

// Each hostile reproduction runs under both L1 backends of this host.
const char* const kBackends[] = {"linux-bwrap", "linux-landlock"};

// Skipped with the reason where the backend cannot run here; else the
// step must have run there.
void requireRanOn(const json::object& step, const std::string& backend) {
  REQUIRE_FALSE(step.empty());
  if (step.at("outcome") == "refused")
    LW_REQUIRE_HOST(false, backend + " cannot run here: " + std::string(step.at("message").as_string()));
  CHECK(step.at("backend") == backend.c_str());
}

// A repository holding the example project and issue form, and `taskpackText`.
fs::path exampleRepo(const Scratch& s, const std::string& taskpackText) {
  const fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpackText},
                  {"greeter.py", readFile(kExample / "greeter.py")},
                  {".github/ISSUE_TEMPLATE/bug.yml", readFile(kExample / ".github/ISSUE_TEMPLATE/bug.yml")}});
  return repo;
}

json::object issueObject(const std::string& body) {
  return json::object{{"number", kIssue},
                      {"title", "greeter bug"},
                      {"body", body},
                      {"state", "open"},
                      {"user", json::object{{"login", "mona"}}},
                      {"author_association", "NONE"},
                      {"labels", json::array{}},
                      {"comments", 0}};
}

struct Published {
  CliRun run;
  json::object step;       // its record in run.json
  json::object triageOut;  // the triage.json the agent wrote, before masking
  std::string comment;     // the sticky comment as GitHub received it
  std::vector<std::string> labels;
};

// `loopwright run --publish github` of `repo` on an issues event whose body
// is `body`, against a fake GitHub; `env` adds to the run's environment.
Published publish(const Scratch& s, const fs::path& repo, const std::string& body,
                  std::map<std::string, std::string> extraEnv = {}) {
  writeFile(s.root / "event.json",
            json::serialize(json::object{{"action", "opened"},
                                         {"issue", issueObject(body)},
                                         {"repository", json::object{{"name", "hello"},
                                                                     {"full_name", "octo/hello"},
                                                                     {"owner", json::object{{"login", "octo"}}}}},
                                         {"sender", json::object{{"login", "mona"}}}}));
  FakeGithub github;
  github.reads().issues[kIssue] = issueObject(body);
  auto env = hostEnv(s.root);
  env["GITHUB_API_URL"] = github.url();
  env["GITHUB_TOKEN"] = FakeGithub::kToken;
  env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
  env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
  env.merge(extraEnv);
  fs::create_directories(s.root / "runner-temp");
  Published p;
  p.run = runCli({"run", "--repo", repo.string(), "--event-name", "issues", "--event-path",
                  (s.root / "event.json").string(), "--out", (s.root / "out").string(), "--publish", "github"},
                 env);
  p.step = stepOf(runJson(s.root / "out"), "reproduce");
  const fs::path triageJson = s.root / "out/steps/triage/reproduce/out/triage.json";
  if (fs::exists(triageJson)) p.triageOut = json::parse(readFile(triageJson)).as_object();
  json::array comments = github.issueComments(kIssue);
  if (!comments.empty()) p.comment = std::string(comments.back().at("body").as_string());
  p.labels = github.issueLabels(kIssue);
  return p;
}

std::string issue(const std::string& name) { return readFile(kExample / "issues" / name); }

// Processes whose command line names `needle` (the step's out dir).
int processesNaming(const std::string& needle) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = readFile(e.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    n += cmdline.find(needle) != std::string::npos;
  }
  return n;
}

int processCount() {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc"))
    n += e.path().filename().string().find_first_not_of("0123456789") == std::string::npos;
  return n;
}

// Each expectation below runs one of the example's issues with `keys`, the
// step's own isolation and sandbox keys, which negotiate `backend`.
void expectNotReproduced(const std::string& backend, const std::string& keys) {
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(keys, "{wallTimeMs: 30000}")));
  Published p = publish(s, repo, issue("22-shout-crash.md"));
  INFO(p.run.out << p.run.err);
  requireRanOn(p.step, backend);
  CHECK(p.run.status == 0);
  CHECK(p.triageOut.at("reproducible") == false);
  CHECK(p.labels == std::vector<std::string>{"not-reproduced"});
  CHECK(p.comment.find("**Reproduction:** not reproduced: it exited with status 0 and the reported error was not "
                       "seen.") != std::string::npos);
  CHECK(p.comment.find("HELLO, MONA!") != std::string::npos);
}

void expectNoToken(const std::string& backend, const std::string& keys) {
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(keys, "{wallTimeMs: 30000}")));
  const std::string runtimeToken = "lw-runtime-secret-7f3a9c";
  Published p = publish(s, repo, issue("23-reads-token.md"), {{"ACTIONS_RUNTIME_TOKEN", runtimeToken}});
  INFO(p.run.out << p.run.err);
  requireRanOn(p.step, backend);
  REQUIRE(p.triageOut.contains("comment"));
  const std::string raw(p.triageOut.at("comment").as_string());  // what the step wrote, before masking
  INFO(raw);
  CHECK(raw.find("GITHUB_TOKEN=unset ACTIONS_RUNTIME_TOKEN=unset") != std::string::npos);
  CHECK(raw.find("no token in any /proc/*/environ") != std::string::npos);
  CHECK(raw.find("<- read") == std::string::npos);
  // Its parent, forked from the agent: not dumpable (no environ, no mem on
  // the host's kernel), and its environment erased (gVisor's kernel shows it).
  CHECK(raw.find("nothing in the environment of my parent") != std::string::npos);
  for (const std::string& secret : {std::string(FakeGithub::kToken), runtimeToken}) {
    CHECK(raw.find(secret) == std::string::npos);
    CHECK(p.comment.find(secret) == std::string::npos);
  }
  CHECK(p.step.at("outcome") == "passed");
}

void expectNoNetwork(const std::string& backend, const std::string& keys) {
  // A service of the host's own, on its loopback: the reproduction must not get to it.
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 8) == 0);
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  const std::string port = std::to_string(ntohs(addr.sin_port));
  std::string body = issue("24-network.md");
  body.replace(body.find("{{HOST_PORT}}"), 13, port);

  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(keys, "{wallTimeMs: 30000}")));
  Published p = publish(s, repo, body);
  INFO(p.run.out << p.run.err);
  requireRanOn(p.step, backend);
  pollfd pending{listener, POLLIN, 0};
  CHECK(::poll(&pending, 1, 0) == 0);  // no connection ever arrived
  ::close(listener);
  CHECK(p.triageOut.at("reproducible") == false);
  CHECK(p.comment.find("cannot reach 127.0.0.1:" + port) != std::string::npos);
  CHECK(p.comment.find("cannot reach 1.1.1.1:443") != std::string::npos);
  CHECK(p.comment.find("cannot resolve github.com") != std::string::npos);
  CHECK(p.comment.find("connected to") == std::string::npos);
}

// A reproduction that reads the environment and the memory of every other
// process it can see and says where it found which of `secrets`, and where
// the step's own variables. It holds the secrets reversed: the agent keeps
// the issue's text in its memory, which must not count as a find.
std::string secretHunter(const std::vector<std::string>& secrets) {
  std::string reversed;
  for (const std::string& secret : secrets) reversed += "'" + std::string(secret.rbegin(), secret.rend()) + "', ";
  return "### Steps to reproduce\n\n```python\nimport os\nsecrets = [s[::-1].encode() for s in (" + reversed +
         ")]\n"
         "found, variables, environs, mems, read = [], [], 0, 0, 0\n"
         "def hunt(data, where):\n"
         "    found.extend('secret %d in %s' % (i, where) for i, s in enumerate(secrets) if s in data)\n"
         "for pid in [p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()]:\n"
         "    try:\n"
         "        data = open('/proc/%s/environ' % pid, 'rb').read()\n"
         "        environs += 1\n"
         "        hunt(data, '/proc/%s/environ' % pid)\n"
         "        if b'LOOPWRIGHT_' in data: variables.append('/proc/%s/environ' % pid)\n"
         "    except OSError:\n"
         "        pass\n"
         "    try:\n"
         "        maps = open('/proc/%s/maps' % pid).read().splitlines()\n"
         "        mem = open('/proc/%s/mem' % pid, 'rb')\n"
         "    except OSError:\n"
         "        continue\n"
         "    mems += 1\n"
         "    for line in maps:\n"
         "        span, perms = line.split()[:2]\n"
         "        lo, hi = (int(x, 16) for x in span.split('-'))\n"
         "        if perms[0] != 'r':\n"
         "            continue\n"
         "        try:\n"
         "            mem.seek(lo)\n"
         "            chunk = mem.read(min(hi - lo, 1 << 24))\n"
         "        except (OSError, OverflowError, ValueError):\n"
         "            continue\n"
         "        read += len(chunk)\n"
         "        hunt(chunk, '/proc/%s/mem' % pid)\n"
         "print('environ of %d other processes read' % environs)\n"
         "print('memory of %d other processes opened, %d bytes read' % (mems, read))\n"
         "print('secrets found: ' + (', '.join(found) or 'nothing'))\n"
         "print('step variables found: ' + (', '.join(variables) or 'nothing'))\n"
         "```\n";
}

// The runner's tokens are found nowhere the reproduction can read. With
// `agentEnvironment`, neither is a variable of the host's allow-list, which
// reaches the agent's environment (not the reproduction's), nor any step
// variable: so under linux-gvisor, where the only other processes are the
// agent and its supervisor. (Under linux-bwrap, bwrap's own pid 1 holds the
// step's environment, which holds no secret by construction: an allow-list.)
void expectNothingInProc(const std::string& backend, const std::string& keys, bool agentEnvironment) {
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(keys, "{wallTimeMs: 30000}")));
  const std::string runtimeToken = "lw-runtime-secret-5d1e07", agentOnly = "lw-agent-environment-3b9f62";
  std::vector<std::string> secrets = {FakeGithub::kToken, runtimeToken};
  if (agentEnvironment) secrets.push_back(agentOnly);
  Published p = publish(s, repo, secretHunter(secrets),
                        {{"ACTIONS_RUNTIME_TOKEN", runtimeToken}, {"LC_LOOPWRIGHT_CANARY", agentOnly}});
  INFO(p.run.out << p.run.err);
  requireRanOn(p.step, backend);
  INFO(readFile(s.root / "out/steps/triage/reproduce/stderr.log"));
  REQUIRE(p.triageOut.contains("comment"));
  const std::string raw(p.triageOut.at("comment").as_string());  // what the step wrote, before masking
  INFO(raw);
  CHECK(raw.find("**Reproduction:** not reproduced") != std::string::npos);
  CHECK(raw.find("\nsecrets found: nothing\n") != std::string::npos);
  for (const std::string& secret : secrets) CHECK(raw.find(secret) == std::string::npos);
  if (!agentEnvironment) return;
  CHECK(raw.find("\nstep variables found: nothing\n") != std::string::npos);
  // It did look: gVisor's kernel lets it read the agent's and its supervisor's.
  CHECK(raw.find("environ of 0 other processes read") == std::string::npos);
}

void expectBombContained(const std::string& backend, const std::string& keys) {
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(keys, "{wallTimeMs: 3000}")));
  const int before = processCount();
  Published p = publish(s, repo, issue("25-fork-bomb.md"));
  INFO(p.run.out << p.run.err);
  requireRanOn(p.step, backend);
  INFO(readFile(s.root / "out/steps/triage/reproduce/stderr.log"));
  CHECK(p.step.at("outcome") == "passed");
  CHECK_FALSE(p.triageOut.contains("reproducible"));
  CHECK(p.labels == std::vector<std::string>{"needs-repro"});
  CHECK(p.comment.find("**Reproduction:** could not run: it did not finish within its wall time of 3000 ms and was "
                       "killed.") != std::string::npos);
  CHECK(processesNaming(s.root.string()) == 0);
  // Other builds share this machine: allow their noise, not a bomb's thousands.
  int after = processCount();
  for (int i = 0; i < 20 && after > before + 50; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    after = processCount();
  }
  CHECK(after <= before + 50);
}

}  // namespace

TEST_CASE("builtin reproduce: the example's open bug is reproduced, labelled and commented with its output") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(kLowered, "{wallTimeMs: 30000}")));
  Published p = publish(s, repo, issue("21-initials-crash.md"));
  INFO(p.run.out << p.run.err);
  INFO(readFile(s.root / "out/steps/triage/reproduce/stderr.log"));
  REQUIRE_FALSE(p.step.empty());
  CHECK(p.step.at("outcome") == "passed");
  CHECK(p.step.at("backend") == "linux-bwrap");
  CHECK(p.run.status == 0);
  CHECK(p.triageOut.at("reproducible") == true);
  CHECK(p.labels == std::vector<std::string>{"reproduced"});
  CHECK(p.comment.find("**Reproducible:** yes") != std::string::npos);
  CHECK(p.comment.find("**Reproduction:** reproduced: the reported error `IndexError: string index out of range` "
                       "was seen in its output.") != std::string::npos);
  CHECK(p.comment.find("Ran the shell block under *Steps to reproduce*, on the default branch.") != std::string::npos);
  CHECK(p.comment.find("    return \"\".join(part[0] for part in name.split(\" \")).upper()") != std::string::npos);
  // The throwaway tree and the script are gone; the checkout is untouched.
  CHECK_FALSE(fs::exists(s.root / "out/steps/triage/reproduce/out/.reproduce"));
  CHECK(capture("git -C '" + repo.string() + "' status --porcelain --ignored").empty());
}

// The example as written: L3 on gVisor, where the reproduction's supervisor
// finds no /proc/<pid>/children and no pidfd_open (Debian 12's runsc).
TEST_CASE("builtin reproduce: as written (L3) on linux-gvisor, the bug is reproduced and a fork bomb leaves nothing") {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  SUBCASE("the open bug") {
    Scratch s;
    const fs::path repo = exampleRepo(s, taskpack(reproduceStep(kAsWritten, "{wallTimeMs: 30000}")));
    Published p = publish(s, repo, issue("21-initials-crash.md"));
    INFO(p.run.out << p.run.err);
    INFO(readFile(s.root / "out/steps/triage/reproduce/stderr.log"));
    requireRanOn(p.step, "linux-gvisor");
    CHECK(p.step.at("outcome") == "passed");
    CHECK(p.triageOut.at("reproducible") == true);
    CHECK(p.labels == std::vector<std::string>{"reproduced"});
    CHECK(p.comment.find("**Reproduction:** reproduced: the reported error `IndexError: string index out of range` "
                         "was seen in its output.") != std::string::npos);
  }
  SUBCASE("the fork bomb") { expectBombContained("linux-gvisor", kAsWritten); }
}

TEST_CASE("builtin reproduce: as written (L3) on linux-gvisor, the fixed bug is not reproduced") {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  expectNotReproduced("linux-gvisor", kAsWritten);
}

// gVisor's kernel shows any process's environment to the others of its
// sandbox, dumpable or not: the agent erases its own before the reproduction.
TEST_CASE("builtin reproduce: as written (L3) on linux-gvisor, a reproduction finds no token") {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  expectNoToken("linux-gvisor", kAsWritten);
}

TEST_CASE("builtin reproduce: as written (L3) on linux-gvisor, a reproduction reaches no network") {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  expectNoNetwork("linux-gvisor", kAsWritten);
}

TEST_CASE("builtin reproduce: as written (L3) on linux-gvisor, every /proc/*/environ and /proc/*/mem holds no secret") {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  expectNothingInProc("linux-gvisor", kAsWritten, true);
}

TEST_CASE("builtin reproduce: the example's fixed bug is not reproduced") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  expectNotReproduced("linux-bwrap", kLowered);
}

TEST_CASE("builtin reproduce: a reproduction looking for the runner's token finds none") {
  for (const std::string backend : kBackends) {
    SUBCASE(backend.c_str()) { expectNoToken(backend, lowered(backend)); }
  }
}

TEST_CASE("builtin reproduce: a reproduction reaching for the network and the host's loopback reaches nothing") {
  for (const std::string backend : kBackends) {
    SUBCASE(backend.c_str()) { expectNoNetwork(backend, lowered(backend)); }
  }
}

TEST_CASE("builtin reproduce: a reproduction reading every /proc/*/environ and /proc/*/mem finds no token") {
  for (const std::string backend : kBackends) {
    SUBCASE(backend.c_str()) { expectNothingInProc(backend, lowered(backend), false); }
  }
}

TEST_CASE("builtin reproduce: a fork bomb is stopped at its wall time, reported, and leaves nothing running") {
  for (const std::string backend : kBackends) {
    SUBCASE(backend.c_str()) { expectBombContained(backend, lowered(backend)); }
  }
}

TEST_CASE("builtin reproduce: without a lowering of its own the step asks for L3 and is refused where none is") {
  Scratch s;
  // spec.isolation L1 and an L1 backend list do not lower it: only the step's own isolation: does.
  const fs::path repo = exampleRepo(
      s, taskpack(reproduceStep("", "{wallTimeMs: 30000}"),
                  "  isolation: L1\n  sandbox: {preferredBackends: [linux-bwrap], networkMode: allow-outbound}\n"));
  Published p = publish(s, repo, issue("21-initials-crash.md"));
  INFO(p.run.out << p.run.err);
  CHECK(p.run.status == 3);
  CHECK(p.step.at("outcome") == "refused");
  CHECK(p.step.at("message").as_string().rfind("ISOLATION_UNAVAILABLE", 0) == 0);
  CHECK(p.step.at("blocker").as_string().find("the step asks for isolation L3") != std::string::npos);
  CHECK_FALSE(fs::exists(s.root / "out/steps/triage/reproduce/out/triage.json"));
  CHECK(p.labels.empty());
}

TEST_CASE("builtin reproduce: the example's taskpack asks for L3 and networkMode none, as explain shows") {
  Scratch s;
  auto r = runCli({"explain", "--repo", kExample.string(), "--event-name", "issues.opened", "--json"}, hostEnv(s.root));
  INFO(r.out << r.err);
  const json::value explained = json::parse(r.out);
  for (const auto& step : explained.at("steps").as_array()) {
    if (step.at("step") != "reproduce") continue;
    CHECK(step.at("sandbox").at("isolation") == "L3");
    CHECK(step.at("sandbox").at("networkMode") == "none");
    // Negotiated at L3 where a backend gives it; refused (explain's exit 3) everywhere else.
    const json::value& negotiation = step.at("negotiation");
    if (negotiation.at("backend").is_null()) {
      CHECK(r.status == 3);
      CHECK(negotiation.at("error").at("code") == "ISOLATION_UNAVAILABLE");
    } else {
      CHECK(negotiation.at("isolation") == "L3");
    }
    return;
  }
  FAIL("explain shows no reproduce step");
}

TEST_CASE("builtin reproduce: a branch the issue names is where the reproduction runs") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(kLowered, "{wallTimeMs: 30000}")));
  const std::string fixed = readFile(kExample / "greeter.py");
  writeFile(s.root / "fixed.py", fixed.substr(0, fixed.find("name.split(\" \")")) + "name.split()" +
                                     fixed.substr(fixed.find("name.split(\" \")") + 15));
  REQUIRE(sh("cd '" + repo.string() +
             "' && git checkout -q -b fix-initials && cp ../fixed.py greeter.py && "
             "git -c user.name=t -c user.email=t@invalid commit -qam fix && git checkout -q main") == 0);
  const std::string repro =
      "```shell\npython3 greeter.py --initials \"Ada  Lovelace\"\n```\n\n"
      "### Actual behaviour\n\nIndexError: string index out of range\n";

  SUBCASE("a branch of the clone: the fix is there, so not reproduced") {
    Published p = publish(s, repo, "### Steps to reproduce\n\nOn branch `fix-initials`:\n\n" + repro);
    INFO(p.run.out << p.run.err);
    CHECK(p.triageOut.at("reproducible") == false);
    CHECK(p.comment.find("Ran the shell block under *Steps to reproduce*, on branch `fix-initials`.") !=
          std::string::npos);
    CHECK(p.comment.find("AL\n") != std::string::npos);
  }
  SUBCASE("a branch that is not in the clone: could not run") {
    Published p = publish(s, repo, "### Steps to reproduce\n\nOn branch `gone`:\n\n" + repro);
    INFO(p.run.out << p.run.err);
    CHECK_FALSE(p.triageOut.contains("reproducible"));
    CHECK(p.comment.find("**Reproduction:** could not run: branch `gone` is not in this clone.") != std::string::npos);
  }
  // Neither run touched the checkout: still on main, nothing changed.
  CHECK(capture("git -C '" + repo.string() + "' rev-parse --abbrev-ref HEAD") == "main\n");
  CHECK(capture("git -C '" + repo.string() + "' status --porcelain --ignored").empty());
}

TEST_CASE("builtin reproduce: what the reproduction prints cannot leave its fence or ping anyone once published") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  Scratch s;
  const fs::path repo = exampleRepo(s, taskpack(reproduceStep(kLowered, "{wallTimeMs: 30000}")));
  Published p = publish(s, repo,
                        "### Steps to reproduce\n\n````sh\necho '```'\necho '@maintainer <img src=x> #1 "
                        "[click](https://evil.example/)'\necho '```'\necho '</details><!--'\nexit 1\n````\n");
  INFO(p.run.out << p.run.err);
  INFO(p.comment);
  REQUIRE(p.comment.find("**Reproduction:** reproduced: it exited with status 1.") != std::string::npos);
  // GitHub's grammar on what GitHub received: every piece of the output is
  // in a code block, none in text that renders as a mention, a link or HTML.
  lw::github::md::Tree tree = lw::github::md::Tree::parse(p.comment);
  bool inCode = false;
  for (cmark_node* node : lw::github::md::nodesUnder(tree.root())) {
    const cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_CODE_BLOCK && lw::github::md::literalOf(node).find("@maintainer") != std::string::npos)
      inCode = true;
    // The one HTML the publisher writes is its own marker.
    if (type == CMARK_NODE_HTML_BLOCK) CHECK(lw::github::md::literalOf(node).rfind("<!-- loopwright:", 0) == 0);
    CHECK(type != CMARK_NODE_HTML_INLINE);
    CHECK(type != CMARK_NODE_LINK);
    if (type == CMARK_NODE_TEXT) CHECK(lw::github::md::literalOf(node).find("@maintainer") == std::string::npos);
  }
  CHECK(inCode);
}
