#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include <boost/json.hpp>

#include "core/http_curl.h"
#include "pipeline/review/run_github_reader.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::pipeline;
using lw::test::FakeGithub;
namespace json = boost::json;

namespace {

// main: a.txt; feature: two commits on top (a.txt, then b.txt).
struct Clone {
  test::TempDir tmp;
  std::string dir = tmp.root.string();
  std::string base, firstHead, head;
  int sh(const std::string& script) const {
    return std::system(("cd '" + dir + "' && (" + script + ") >/dev/null 2>&1").c_str());
  }
  std::string rev(const std::string& what) const {
    REQUIRE(sh("git rev-parse " + what + " > ../rev-" + tmp.root.filename().string()) == 0);
    std::ifstream in(tmp.root.parent_path() / ("rev-" + tmp.root.filename().string()));
    std::string sha;
    in >> sha;
    return sha;
  }
  Clone() {
    tmp.write("a.txt", "one\n");
    REQUIRE(sh("git init -q -b main . && git config user.email t@e && git config user.name t && "
               "git add . && git commit -qm base") == 0);
    base = rev("HEAD");
    REQUIRE(sh("git checkout -qb feature && echo two >> a.txt && git commit -qam first") == 0);
    firstHead = rev("HEAD");
    REQUIRE(sh("echo new > b.txt && git add b.txt && git commit -qm second") == 0);
    head = rev("HEAD");
  }
  ~Clone() { std::remove((tmp.root.parent_path() / ("rev-" + tmp.root.filename().string())).c_str()); }
};

class StillClock final : public github::WallClock {
 public:
  std::chrono::system_clock::time_point now() const override { return t; }
  std::chrono::system_clock::time_point t = std::chrono::system_clock::now();
};
class NoSleep final : public github::Sleeper {
 public:
  void sleepFor(std::chrono::milliseconds d) override { slept.push_back(d); }
  std::vector<std::chrono::milliseconds> slept;
};

struct Api {
  FakeGithub gh;
  http::CurlTransport transport{github::httpPolicy()};
  StillClock clock;
  NoSleep sleeper;
  github::SearchLimiter limiter;
  github::RestClient client{transport, clock, sleeper, [this] {
                              github::RestConfig c;
                              c.apiUrl = gh.url();
                              c.token = FakeGithub::kToken;
                              return c;
                            }()};
  github::RestReads reads{client, clock, sleeper, limiter, github::RepoRef{FakeGithub::kOwner, FakeGithub::kRepo}};
};

github::GithubEvent pullEvent(const std::string& action, const std::string& base, const std::string& head) {
  github::GithubEvent e;
  e.name = "pull_request";
  e.action = action;
  e.repository = {FakeGithub::kOwner, FakeGithub::kRepo};
  e.number = 7;
  e.isPullRequest = true;
  e.baseSha = base;
  e.headSha = head;
  return e;
}

json::value payloadFor(const std::string& base, const std::string& head) {
  return json::object{{"action", "opened"},
                      {"pull_request", json::object{{"number", 7},
                                                    {"title", "From the payload"},
                                                    {"body", "b"},
                                                    {"user", json::object{{"login", "mona"}}},
                                                    {"author_association", "MEMBER"},
                                                    {"draft", false},
                                                    {"labels", json::array{}},
                                                    {"head", json::object{{"sha", head}, {"ref", "feature"}}},
                                                    {"base", json::object{{"sha", base}, {"ref", "main"}}}}}};
}

}  // namespace

TEST_CASE("run reader: the clone answers the diff, incremental on a synchronize after a review") {
  Clone c;
  Api api;
  RunReadFacts facts{c.dir, pullEvent("synchronize", c.base, c.head), payloadFor(c.base, c.head), c.firstHead};
  RunGithubReader reader(facts, &api.reads, nullptr);
  auto inc = reader.diff(false);
  REQUIRE_MESSAGE(inc.ok(), (inc.ok() ? "" : inc.error().message));
  CHECK(inc->scope.incremental);
  CHECK(inc->scope.base == c.firstHead);
  CHECK(inc->diff.find("b/b.txt") != std::string::npos);
  CHECK(inc->diff.find("a.txt") == std::string::npos);
  auto full = reader.diff(true);
  REQUIRE(full.ok());
  CHECK_FALSE(full->scope.incremental);
  CHECK(full->scope.base == c.base);
  CHECK(full->diff.find("a.txt") != std::string::npos);
  auto files = reader.files(false);
  REQUIRE(files.ok());
  REQUIRE(files->files.size() == 1);
  CHECK(files->files[0].path == "b.txt");
  CHECK(api.gh.requests().empty());
  SUBCASE("an opened event reviews the whole change") {
    RunReadFacts opened{c.dir, pullEvent("opened", c.base, c.head), payloadFor(c.base, c.head), c.firstHead};
    RunGithubReader r2(opened, &api.reads, nullptr);
    CHECK_FALSE(r2.diff(false)->scope.incremental);
  }
}

TEST_CASE("run reader: github.pull from the payload, files at base and head from the clone") {
  Clone c;
  Api api;
  RunGithubReader reader({c.dir, pullEvent("opened", c.base, c.head), payloadFor(c.base, c.head), ""}, &api.reads,
                         nullptr);
  auto p = reader.pull();
  REQUIRE(p.ok());
  CHECK(p->title == "From the payload");
  CHECK(p->authorAssociation == "MEMBER");
  CHECK(reader.file("a.txt", TreeSide::Base)->content == "one\n");
  CHECK(reader.file("a.txt", TreeSide::Head)->content == "one\ntwo\n");
  auto missing = reader.file("b.txt", TreeSide::Base);
  REQUIRE_FALSE(missing.ok());
  CHECK(isNotFound(missing.error()));
  CHECK(api.gh.requests().empty());  // the clone's "not found" stands
}

TEST_CASE("run reader: a head the clone lacks is read from the REST API") {
  Clone c;
  Api api;
  std::string foreignHead(40, 'f');
  api.gh.addPull(7, foreignHead, "diff --git a/z b/z\n");
  api.gh.reads().pullFiles[7] = json::array{json::object{
      {"filename", "z"}, {"status", "added"}, {"additions", 1}, {"deletions", 0}, {"patch", "@@ -0,0 +1 @@"}}};
  api.gh.reads().contents[foreignHead] = {{"z", "zed\n"}};
  RunGithubReader reader({c.dir, pullEvent("opened", c.base, foreignHead), json::object{}, ""}, &api.reads, nullptr);
  auto d = reader.diff(false);
  REQUIRE_MESSAGE(d.ok(), (d.ok() ? "" : d.error().message));
  CHECK(d->diff == "diff --git a/z b/z\n");
  auto f = reader.files(false);
  REQUIRE(f.ok());
  CHECK(f->files.at(0).path == "z");
  CHECK(reader.file("z", TreeSide::Head)->content == "zed\n");
  CHECK(api.gh.count("GET", "/pulls/7") == 2);
  SUBCASE("when both fail, the error says why for each") {
    api.gh.script([] {
      FakeGithub::Script s;
      s.pathContains = "/pulls/7";
      s.status = 403;
      s.body = R"({"message":"Resource not accessible by integration"})";
      return s;
    }());
    auto denied = reader.diff(false);
    REQUIRE_FALSE(denied.ok());
    CHECK(denied.error().message.find("HTTP 403") != std::string::npos);
    CHECK(denied.error().message.find("from the local clone: commit ffff") != std::string::npos);
  }
}

TEST_CASE("run reader: a comment on a pull request asks the API for base and head") {
  Clone c;
  Api api;
  api.gh.addPull(7, c.head, "");
  github::GithubEvent comment = pullEvent("created", "", "");
  comment.name = "issue_comment";
  RunGithubReader reader({c.dir, comment, json::object{{"issue", json::object{{"number", 7}}}}, ""}, &api.reads,
                         nullptr);
  auto s = reader.scope(false);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  CHECK(s->head == c.head);
  CHECK(s->base == "b" + c.head.substr(1));
}

TEST_CASE("run reader: without a token the API reads say why, the clone still answers") {
  Clone c;
  RunGithubReader reader({c.dir, pullEvent("opened", c.base, c.head), payloadFor(c.base, c.head), ""}, nullptr,
                         nullptr);
  CHECK(reader.diff(false).ok());
  for (auto err : {reader.labels().error(), reader.issue(std::nullopt).error(), reader.searchIssues("x", 5).error()}) {
    CHECK(err.message.find("needs the GitHub API: loopwright has no GITHUB_TOKEN") != std::string::npos);
    CHECK(err.hint == "give the loopwright step env: GITHUB_TOKEN: ${{ github.token }}");
  }
  RunGithubReader local({c.dir, std::nullopt, json::object{}, ""}, nullptr, nullptr);
  CHECK(local.pull().error().message == "this run is not on a pull request");
  CHECK(local.issue(std::nullopt).error().message == "this run's event is about no issue");
}

TEST_CASE("run reader: issues, search and labels go to the API") {
  Clone c;
  Api api;
  api.gh.reads().issues[7] =
      json::object{{"number", 7}, {"title", "T"}, {"state", "open"}, {"user", json::object{{"login", "mona"}}}};
  RunGithubReader reader({c.dir, pullEvent("opened", c.base, c.head), payloadFor(c.base, c.head), ""}, &api.reads,
                         nullptr);
  auto t = reader.issue(std::nullopt);
  REQUIRE_MESSAGE(t.ok(), (t.ok() ? "" : t.error().message));
  CHECK(t->number == 7);
  CHECK(reader.labels()->at(0).name == "bug");
  CHECK(reader.searchIssues("crash", 3)->total == 0);
  CHECK(api.gh.reads().searchQueries == std::vector<std::string>{"repo:octo/hello crash"});
}

TEST_CASE("run reader: off a pull request github.file reads the checked-out commit, else the default branch") {
  Clone c;
  Api api;
  github::GithubEvent issue = pullEvent("opened", "", "");
  issue.name = "issues";
  issue.isPullRequest = false;
  RunGithubReader reader({c.dir, issue, json::object{}, ""}, &api.reads, nullptr);
  auto f = reader.file("b.txt", TreeSide::Head);
  REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
  CHECK(f->content == "new\n");
  CHECK(api.gh.requests().empty());
  test::TempDir notAClone;
  api.gh.reads().contents["main"] = {{".github/ISSUE_TEMPLATE/bug.yml", "name: Bug\n"}};
  RunGithubReader remote({notAClone.root, issue, json::object{}, ""}, &api.reads, nullptr);
  auto r = remote.file(".github/ISSUE_TEMPLATE/bug.yml", TreeSide::Head);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  CHECK(r->content == "name: Bug\n");
  CHECK(api.gh.requests().back().target == "/repos/octo/hello/contents/.github/ISSUE_TEMPLATE/bug.yml");
}
