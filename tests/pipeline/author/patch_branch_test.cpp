// publication.patches: branch, end to end: a real bare repository as the
// remote, the fake GitHub for the linking comment.
#include <doctest/doctest.h>
#include <boost/json.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <sys/wait.h>
#include <unistd.h>
#include <fstream>
#include <sstream>

#include "core/http_curl.h"
#include "github/publish/channels/publisher.h"
#include "github/publish/outbox.h"
#include "github/rest/rest_client.h"
#include "pipeline/author/patch_branch.h"
#include "support/fake_github.h"
#include "support/host_requirement.h"
#include "support/read_file.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

class FixedClock final : public WallClock {
 public:
  std::chrono::system_clock::time_point now() const override { return std::chrono::system_clock::time_point{}; }
};
class NoWait final : public Sleeper {
 public:
  void sleepFor(std::chrono::milliseconds) override {}
};

const std::string kHeadSha(40, 'c');

// The fake GitHub with pull request 7, a REST client, an outbox in a
// temporary state directory.
struct Harness {
  Harness() : outbox(state.root.string()) {
    gh.addPull(7, kHeadSha, "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    RestConfig config;
    config.apiUrl = gh.url();
    config.token = FakeGithub::kToken;
    client = std::make_unique<RestClient>(transport, clock, sleeper, config, &log);
  }
  Publisher publisher() { return Publisher(*client, outbox, publisherConfig, log); }
  std::string operator/(const std::string& name) const { return (state.root / name).string(); }

  FakeGithub gh;
  FixedClock clock;
  NoWait sleeper;
  http::CurlTransport transport{httpPolicy()};
  TempDir state;
  std::ostringstream log;
  std::unique_ptr<RestClient> client;
  Outbox outbox;
  PublisherConfig publisherConfig;
};

// octo/hello.git (bare, the remote) has main; work/ is the orchestrator's checkout of it;
// change.patch is an author's change to main made in another clone: an
// edited line, a new file, a deleted file and an edited binary file.
struct Repos {
  explicit Repos(const std::string& root) : root(root) {
    std::filesystem::create_directories(root);
    REQUIRE(sh("mkdir octo && git init -q --bare -b main octo/hello.git && git init -q -b main work && cd work && "
               "git config user.email t@example.com && git config user.name t && mkdir src && "
               "printf 'one\\ntwo\\nthree\\n' > src/app.c && printf 'gone\\n' > old.txt && "
               "printf '\\211PNG\\0\\1\\2\\3' > logo.png && git add -A && git commit -qm base && "
               "git remote add origin ../octo/hello.git && git push -q origin main") == 0);
    base = out("git -C work rev-parse HEAD");
    REQUIRE(sh("git clone -q octo/hello.git author && cd author && printf 'one\\nTWO\\nthree\\n' > src/app.c && "
               "printf 'new\\n' > added.txt && git rm -q old.txt && printf '\\211PNG\\0\\4\\5' > logo.png && "
               "git add -A && git diff --cached --binary > ../change.patch") == 0);
    patch = lw::test::readFile(root + "/change.patch");
    REQUIRE(patch.find("GIT binary patch") != std::string::npos);
  }
  int sh(const std::string& script) const {
    return std::system(("cd '" + root + "' && (" + script + ") >/dev/null 2>&1").c_str());
  }
  std::string out(const std::string& cmd) const {
    REQUIRE(sh(cmd + " > .out") == 0);
    std::string s = lw::test::readFile(root + "/.out");
    std::remove((root + "/.out").c_str());
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }
  // Every file of the checkout, .git included, with its content hash.
  std::string snapshot() const { return out("cd work && find . -type f -print0 | sort -z | xargs -0 sha256sum"); }

  std::string root, base, patch;
};

PublicationRequest branchRequest(const Repos& r, std::string id = "run-1") {
  PublicationRequest req;
  req.id = std::move(id);
  req.repo = {FakeGithub::kOwner, FakeGithub::kRepo};
  req.number = 7;
  req.isPullRequest = true;
  req.headSha = kHeadSha;
  req.conclusion = lw::github::Conclusion::Success;
  req.options.patches = PatchPublication::Branch;
  req.changes.push_back({"fix", "fmt", r.base, r.patch, "fix/fmt/change.patch", 1700000000});
  return req;
}

}  // namespace

TEST_CASE("patch branch: the commit is pushed to loopwright/<run>/<step> and linked from the pull request") {
  Harness h;
  Repos repos(h / "git");
  const std::string before = repos.snapshot();
  pipeline::GitBranchPusher pusher({repos.root + "/work", "github.com", h / "scratch", "not-used-for-a-path-remote"});
  h.publisherConfig.branchPusher = &pusher;

  auto outcome = h.publisher().publish(branchRequest(repos));
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  CHECK(outcome->complete);

  const std::string commit = repos.out("git -C octo/hello.git rev-parse refs/heads/loopwright/run-1/fmt");
  CHECK(repos.out("git -C octo/hello.git rev-parse " + commit + "^") == repos.base);
  CHECK(
      repos.out("git -C octo/hello.git log -1 --format='%an <%ae>|%cn|%s' " + commit) ==
      "loopwright <loopwright@users.noreply.github.com>|loopwright|loopwright: change proposed by author step fix/fmt");
  // `git apply` on a clone at the base gives the same tree.
  REQUIRE(repos.sh("git clone -q octo/hello.git check && cd check && git checkout -q " + repos.base +
                   " && git apply --index ../change.patch") == 0);
  CHECK(repos.out("git -C check write-tree") == repos.out("git -C octo/hello.git rev-parse " + commit + "^{tree}"));

  json::array comments = h.gh.issueComments(7);
  REQUIRE(comments.size() == 1);
  const std::string body(comments[0].at("body").as_string());
  CHECK(body.find("<!-- loopwright:patch-branch:run-1:fix/fmt -->") == 0);
  CHECK(body.find("`loopwright/run-1/fmt`") != std::string::npos);
  CHECK(body.find("/compare/" + repos.base + "...loopwright/run-1/fmt)") != std::string::npos);
  CHECK(body.find(commit) != std::string::npos);

  CHECK(repos.snapshot() == before);  // refs, index, working tree and .git files
  CHECK(std::filesystem::is_empty(h / "scratch"));

  SUBCASE("publishing the same run again neither duplicates the comment nor moves the branch") {
    auto again = h.publisher().publish(branchRequest(repos));
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message), "\n", h.log.str());
    CHECK(h.gh.issueComments(7).size() == 1);
    CHECK(repos.out("git -C octo/hello.git rev-parse refs/heads/loopwright/run-1/fmt") == commit);
  }
}

TEST_CASE("patch branch: an existing branch at another commit is not overwritten and the change stays in the outbox") {
  Harness h;
  Repos repos(h / "git");
  REQUIRE(repos.sh("git -C work push -q origin main:refs/heads/loopwright/run-1/fmt") == 0);
  pipeline::GitBranchPusher pusher({repos.root + "/work", "github.com", h / "scratch", ""});
  h.publisherConfig.branchPusher = &pusher;

  auto outcome = h.publisher().publish(branchRequest(repos));
  REQUIRE_FALSE(outcome.ok());
  CHECK(outcome.error().code == ErrorCode::PublicationFailed);
  CHECK(outcome.error().message.find("already exists on the remote at another commit") != std::string::npos);
  CHECK(repos.out("git -C octo/hello.git rev-parse refs/heads/loopwright/run-1/fmt") == repos.base);
  CHECK(h.gh.issueComments(7).empty());
  auto pending = h.outbox.pending();
  REQUIRE(pending.ok());
  REQUIRE(pending->size() == 1);
  CHECK(pending->front().request.changes.size() == 1);
  CHECK(pending->front().request.changes[0].patch == repos.patch);
}

TEST_CASE("patch branch: a publisher without a pusher keeps the change pending") {
  Harness h;
  Repos repos(h / "git");
  auto outcome = h.publisher().publish(branchRequest(repos));
  REQUIRE_FALSE(outcome.ok());
  CHECK(outcome.error().message.find("no git remote to push to") != std::string::npos);
  CHECK(h.gh.issueComments(7).empty());
}

TEST_CASE("patch branch: the checkout's origin only when it names the publication's repository") {
  const RepoRef repo{"octo", "hello"};
  CHECK(pipeline::pushUrlFor("https://github.com/octo/hello", repo, "github.com") == "https://github.com/octo/hello");
  CHECK(pipeline::pushUrlFor("git@github.com:Octo/Hello.git", repo, "github.com") == "git@github.com:Octo/Hello.git");
  CHECK(pipeline::pushUrlFor("/srv/git/octo/hello.git/", repo, "github.com") == "/srv/git/octo/hello.git/");
  CHECK(pipeline::pushUrlFor("https://github.com/octo/other", repo, "ghe.example") ==
        "https://ghe.example/octo/hello.git");
  CHECK(pipeline::pushUrlFor("https://github.com/xocto/hello", repo, "github.com") ==
        "https://github.com/octo/hello.git");
  CHECK(pipeline::pushUrlFor("", repo, "github.com") == "https://github.com/octo/hello.git");
}

TEST_CASE("patch branch: the token goes only to https, or http on loopback, and never in the URL") {
  CHECK(pipeline::mayCarryToken("https://github.com/o/r.git"));
  CHECK(pipeline::mayCarryToken("http://127.0.0.1:8080/o/r.git"));
  CHECK(pipeline::mayCarryToken("http://localhost/o/r.git"));
  CHECK(pipeline::mayCarryToken("http://[::1]:9/o/r.git"));
  CHECK_FALSE(pipeline::mayCarryToken("http://github.com/o/r.git"));
  CHECK_FALSE(pipeline::mayCarryToken("http://127.0.0.1.evil.example/o/r.git"));
  CHECK_FALSE(pipeline::mayCarryToken("http://localhost@evil.example/o/r.git"));
  CHECK_FALSE(pipeline::mayCarryToken("ssh://git@github.com/o/r.git"));
  CHECK_FALSE(pipeline::mayCarryToken("/srv/git/r.git"));
  CHECK(pipeline::withoutUserInfo("https://x-access-token:ghs_x@github.com/o/r.git") == "https://github.com/o/r.git");
  CHECK(pipeline::withoutUserInfo("https://github.com/o/r@v1.git") == "https://github.com/o/r@v1.git");
  RestConfig rest;
  rest.apiUrl = "https://ghe.example/api/v3";
  rest.token = "ghs_token";
  auto c = pipeline::patchBranchConfigFor("/w/repo", "/state", rest);
  CHECK(c.webHost == "ghe.example");
  CHECK(c.scratchDir == "/state/patch-branches");
  CHECK(c.token == "ghs_token");
}

namespace {

// tests/pipeline/author/git_http_server.py on a free port of 127.0.0.1, stopped
// with the object.
struct GitHttpServer {
  GitHttpServer(const std::string& root, const std::string& password, const std::string& log) {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    pid = ::fork();
    if (pid == 0) {
      ::dup2(out[1], 1);
      ::close(out[0]);
      const std::string script = std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/pipeline/author/git_http_server.py";
      ::execlp("python3", "python3", script.c_str(), root.c_str(), password.c_str(), log.c_str(), nullptr);
      ::_exit(127);
    }
    ::close(out[1]);
    // The port, a whole line: the server must not find its pipe closed
    // while it writes (it would die of SIGPIPE before serving).
    std::string line;
    char c = 0;
    while (line.size() < 16 && ::read(out[0], &c, 1) == 1 && c != '\n') line += c;
    ::close(out[0]);
    port = std::atoi(line.c_str());
  }
  ~GitHttpServer() {
    if (pid > 0) {
      ::kill(pid, SIGTERM);
      ::waitpid(pid, nullptr, 0);
    }
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port) + "/" + path; }
  pid_t pid = -1;
  int port = 0;
};

}  // namespace

TEST_CASE("patch branch: over http the token goes only through the credentials callback, as x-access-token") {
  LW_REQUIRE_HOST(std::system("command -v python3 >/dev/null && test -x \"$(git --exec-path)/git-http-backend\"") == 0,
                  "python3 or git http-backend is missing");
  Harness h;
  Repos repos(h / "git");
  const std::string token = "ghs_patchBranchToken123";
  GitHttpServer server(repos.root, token, h / "http.log");
  REQUIRE(server.port > 0);
  REQUIRE(repos.sh("git -C work remote set-url origin " + server.url("octo/hello.git")) == 0);
  const std::string before = repos.snapshot();

  SUBCASE("the right token pushes the branch") {
    pipeline::GitBranchPusher pusher({repos.root + "/work", "github.com", h / "scratch", token});
    h.publisherConfig.branchPusher = &pusher;
    auto outcome = h.publisher().publish(branchRequest(repos));
    REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
    const std::string commit = repos.out("git -C octo/hello.git rev-parse refs/heads/loopwright/run-1/fmt");
    CHECK(repos.out("git -C octo/hello.git rev-parse " + commit + "^") == repos.base);
    const std::string log = lw::test::readFile(h / "http.log");
    CHECK(log.find("POST /octo/hello.git/git-receive-pack Basic ") != std::string::npos);
    CHECK(log.find(token) == std::string::npos);  // only its base64 in the header, never in a path
    CHECK(repos.snapshot() == before);            // nothing of it written to the checkout's config
  }
  SUBCASE("a refused token fails the push after one try, and the change stays pending") {
    pipeline::GitBranchPusher pusher({repos.root + "/work", "github.com", h / "scratch", "wrong-token"});
    h.publisherConfig.branchPusher = &pusher;
    auto outcome = h.publisher().publish(branchRequest(repos));
    REQUIRE_FALSE(outcome.ok());
    std::size_t requests = 0;
    for (char c : lw::test::readFile(h / "http.log")) requests += c == '\n';
    CHECK(requests <= 3);
    CHECK(h.outbox.pending()->size() == 1);
    CHECK(h.gh.issueComments(7).empty());
  }
}
