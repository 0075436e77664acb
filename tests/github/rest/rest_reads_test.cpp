#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "core/http_curl.h"
#include "github/rest/read_shapes.h"
#include "github/rest/rest_reads.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"

using namespace lw;
using namespace lw::github;
using lw::test::FakeGithub;
namespace json = boost::json;
using std::chrono::milliseconds;

namespace {

constexpr const char* kHead = "0123456789abcdef0123456789abcdef01234567";

// Starts at the real time (the fake's x-ratelimit-reset is real) and only
// moves when the sleeper sleeps.
class ManualClock final : public WallClock {
 public:
  std::chrono::system_clock::time_point now() const override { return t; }
  std::chrono::system_clock::time_point t =
      std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
};

class AdvancingSleeper final : public Sleeper {
 public:
  explicit AdvancingSleeper(ManualClock& c) : clock(c) {}
  void sleepFor(milliseconds d) override {
    slept.push_back(d);
    clock.t += d;
  }
  ManualClock& clock;
  std::vector<milliseconds> slept;
};

RestConfig config(const FakeGithub& gh) {
  RestConfig c;
  c.apiUrl = gh.url();
  c.token = FakeGithub::kToken;
  return c;
}

FakeGithub::Script failing(const std::string& path, int status, std::string body = "{}", int skip = 0,
                           std::map<std::string, std::string> headers = {}) {
  FakeGithub::Script s;
  s.method = "GET";
  s.pathContains = path;
  s.status = status;
  s.body = std::move(body);
  s.skip = skip;
  s.headers = std::move(headers);
  return s;
}

struct Rig {
  explicit Rig(ReadLimits limits = {})
      : sleeper(clock),
        api(transport, clock, sleeper, config(gh)),
        reads(api, clock, sleeper, limiter, RepoRef{FakeGithub::kOwner, FakeGithub::kRepo}, limits) {}
  FakeGithub gh;
  http::CurlTransport transport{httpPolicy()};
  ManualClock clock;
  AdvancingSleeper sleeper;
  SearchLimiter limiter;
  RestClient api;
  RestReads reads;
};

json::array fileObjects(int n, int from = 0) {
  json::array out;
  for (int i = from; i < from + n; ++i)
    out.push_back(json::object{{"filename", "src/f" + std::to_string(i) + ".c"},
                               {"status", "modified"},
                               {"additions", 1},
                               {"deletions", 2},
                               {"changes", 3},
                               {"patch", "@@ -1 +1 @@"}});
  return out;
}

}  // namespace

TEST_CASE("rest reads: github.pull from GET pulls/{n}") {
  Rig rig;
  rig.gh.addPull(7, kHead, "");
  rig.gh.reads().pulls[7] = {"Fix it", "Closes #3", "mona", "FIRST_TIME_CONTRIBUTOR", "main", "fix", {"bug"}, true};
  auto p = rig.reads.pull(7);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  CHECK(p->number == 7);
  CHECK(p->title == "Fix it");
  CHECK(p->body == "Closes #3");
  CHECK(p->author == "mona");
  CHECK(p->authorAssociation == "FIRST_TIME_CONTRIBUTOR");
  CHECK(p->headSha == kHead);
  CHECK(p->baseSha == "b" + std::string(kHead).substr(1));
  CHECK(p->headRef == "fix");
  CHECK(p->labels == std::vector<std::string>{"bug"});
  CHECK(p->draft);
  SUBCASE("404 is not found") {
    auto missing = rig.reads.pull(8);
    REQUIRE_FALSE(missing.ok());
    CHECK(isNotFound(missing.error()));
  }
  SUBCASE("403 names the permission") {
    rig.gh.script(failing("/pulls/7", 403, R"({"message":"Resource not accessible by integration"})"));
    auto denied = rig.reads.pull(7);
    REQUIRE_FALSE(denied.ok());
    CHECK(denied.error().message == "pull request #7: HTTP 403 (Resource not accessible by integration)");
    CHECK(denied.error().hint.find("pull-requests: read") != std::string::npos);
  }
}

TEST_CASE("rest reads: the diff, full and incremental, 406 and the size bound") {
  std::string diff = "diff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/b b/b\n@@ -1 +1 @@\n-p\n+q\n";
  Rig rig;
  rig.gh.addPull(7, kHead, diff);
  auto full = rig.reads.diff(7, {"base1", kHead, false});
  REQUIRE(full.ok());
  CHECK(full->diff == diff);
  CHECK_FALSE(full->truncated);
  CHECK(rig.gh.requests().back().headers.at("accept") == "application/vnd.github.diff");
  rig.gh.reads().compares[std::string("aaa...") + kHead] = {"ahead", {}, "diff --git a/b b/b\n"};
  auto inc = rig.reads.diff(7, {"aaa", kHead, true});
  REQUIRE(inc.ok());
  CHECK(inc->diff == "diff --git a/b b/b\n");
  CHECK(inc->scope.incremental);
  CHECK(rig.gh.requests().back().path == std::string("/repos/octo/hello/compare/aaa...") + kHead);
  SUBCASE("406: too large for GitHub") {
    rig.gh.script(
        failing("/pulls/7", 406, R"x({"message":"Sorry, the diff exceeded the maximum number of lines (20000)"})x"));
    auto big = rig.reads.diff(7, {"base1", kHead, false});
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().message.find("too large for GitHub to render") != std::string::npos);
    CHECK(big.error().hint.find("fetch-depth: 0") != std::string::npos);
  }
  SUBCASE("over the byte bound: cut at a file") {
    Rig small(ReadLimits{.diffBytes = 40});
    small.gh.addPull(7, kHead, diff);
    auto cut = small.reads.diff(7, {"base1", kHead, false});
    REQUIRE(cut.ok());
    CHECK(cut->truncated);
    CHECK(cut->diff == "diff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\n");
  }
}

TEST_CASE("rest reads: files are paged through Link and bounded") {
  Rig rig;
  rig.gh.addPull(7, kHead, "");
  json::array files = fileObjects(248);
  files.push_back(
      json::object{{"filename", "logo.png"}, {"status", "added"}, {"additions", 0}, {"deletions", 0}, {"changes", 0}});
  files.push_back(json::object{{"filename", "new.c"},
                               {"previous_filename", "old.c"},
                               {"status", "renamed"},
                               {"additions", 0},
                               {"deletions", 0},
                               {"changes", 0}});
  rig.gh.reads().pullFiles[7] = files;
  auto f = rig.reads.files(7, {"b", kHead, false});
  REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
  CHECK(f->files.size() == 250);
  CHECK_FALSE(f->truncated);
  CHECK(rig.gh.count("GET", "/pulls/7/files") == 3);
  CHECK(f->files[0].additions == 1);
  CHECK(f->files[0].deletions == 2);
  CHECK_FALSE(f->files[0].binary);
  CHECK(f->files[248].binary);
  CHECK(f->files[249].status == FileChange::Renamed);
  CHECK(f->files[249].previousPath == "old.c");
  CHECK_FALSE(f->files[249].binary);
  SUBCASE("a bound stops the paging") {
    Rig bounded(ReadLimits{.maxFiles = 100});
    bounded.gh.addPull(7, kHead, "");
    bounded.gh.reads().pullFiles[7] = files;
    auto b = bounded.reads.files(7, {"b", kHead, false});
    REQUIRE(b.ok());
    CHECK(b->files.size() == 100);
    CHECK(b->truncated);
    CHECK(bounded.gh.count("GET", "/pulls/7/files") == 1);
  }
  SUBCASE("GitHub's 3000-file cap is reported as truncated") {
    rig.gh.reads().pullFiles[7] = fileObjects(3005);
    auto all = rig.reads.files(7, {"b", kHead, false});
    REQUIRE(all.ok());
    CHECK(all->files.size() == 3000);
    CHECK(all->truncated);
  }
  SUBCASE("incremental: compare's files") {
    rig.gh.reads().compares[std::string("aaa...") + kHead] = {"ahead", fileObjects(2), ""};
    auto inc = rig.reads.files(7, {"aaa", kHead, true});
    REQUIRE(inc.ok());
    CHECK(inc->files.size() == 2);
    CHECK(inc->scope.incremental);
  }
  SUBCASE("a failed page fails the read") {
    rig.gh.script(failing("/pulls/7/files", 404, R"({"message":"Not Found"})", 1));
    auto broken = rig.reads.files(7, {"b", kHead, false});
    REQUIRE_FALSE(broken.ok());
    CHECK(isNotFound(broken.error()));
  }
}

TEST_CASE("rest reads: a file at a commit, raw, bounded, not found") {
  Rig rig(ReadLimits{.fileBytes = 8});
  rig.gh.reads().contents[kHead] = {
      {"src/a b.c", "int a;\n"}, {"big.txt", "0123456789abcdef"}, {"img.png", std::string("\x89PNG\0\0", 6)}};
  auto f = rig.reads.file(kHead, "src/a b.c", TreeSide::Head);
  REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message));
  CHECK(f->content == "int a;\n");
  CHECK(f->size == 7);
  CHECK(f->sha == "blob-7");
  CHECK_FALSE(f->truncated);
  CHECK(rig.gh.requests().back().target == std::string("/repos/octo/hello/contents/src/a%20b.c?ref=") + kHead);
  auto big = rig.reads.file(kHead, "big.txt", TreeSide::Head);
  REQUIRE(big.ok());
  CHECK(big->content == "01234567");
  CHECK(big->size == 16);
  CHECK(big->truncated);
  auto png = rig.reads.file(kHead, "img.png", TreeSide::Head);
  REQUIRE(png.ok());
  CHECK(png->binary);
  CHECK(png->content.empty());
  auto missing = rig.reads.file(kHead, "nope.c", TreeSide::Base);
  REQUIRE_FALSE(missing.ok());
  CHECK(isNotFound(missing.error()));
  CHECK(missing.error().message == "not found: nope.c at base (0123456789ab)");
  auto dir = rig.reads.file(kHead, "src", TreeSide::Head);
  REQUIRE_FALSE(dir.ok());
  CHECK(isNotFound(dir.error()));
}

TEST_CASE("rest reads: an issue with its comments, paged and bounded") {
  Rig rig(ReadLimits{.maxComments = 120});
  rig.gh.reads().issues[5] = json::object{{"number", 5},
                                          {"title", "Crash"},
                                          {"body", nullptr},
                                          {"state", "open"},
                                          {"user", json::object{{"login", "mona"}}},
                                          {"author_association", "NONE"},
                                          {"labels", json::array{json::object{{"name", "bug"}}}}};
  for (int i = 0; i < 150; ++i) rig.gh.addIssueComment(5, "c" + std::to_string(i), "comment " + std::to_string(i));
  auto t = rig.reads.issue(5);
  REQUIRE_MESSAGE(t.ok(), (t.ok() ? "" : t.error().message));
  CHECK(t->title == "Crash");
  CHECK(t->body.empty());
  CHECK(t->author == "mona");
  CHECK(t->labels == std::vector<std::string>{"bug"});
  CHECK(t->comments.size() == 120);
  CHECK(t->comments[101].body == "comment 101");
  CHECK(t->commentsTruncated);
  CHECK(rig.gh.count("GET", "/issues/5/comments") == 2);
  auto missing = rig.reads.issue(6);
  REQUIRE_FALSE(missing.ok());
  CHECK(isNotFound(missing.error()));
}

TEST_CASE("rest reads: search is scoped to the repository") {
  Rig rig;
  rig.gh.reads().searchItems = json::array{json::object{{"number", 3},
                                                        {"title", "Crash on start"},
                                                        {"body", "x"},
                                                        {"state", "closed"},
                                                        {"html_url", "https://github.com/octo/hello/issues/3"},
                                                        {"labels", json::array{json::object{{"name", "bug"}}}}}};
  auto s = rig.reads.search("crash on start is:issue", 10);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  CHECK(s->total == 1);
  REQUIRE(s->items.size() == 1);
  CHECK(s->items[0].url == "https://github.com/octo/hello/issues/3");
  CHECK(rig.gh.reads().searchQueries.back() == "repo:octo/hello crash on start is:issue");
  CHECK(rig.gh.requests().back().target.find("per_page=10") != std::string::npos);
  SUBCASE("a qualifier that widens the scope is refused before any request") {
    for (const char* q : {"crash repo:other/x", "REPO:other/x", "crash org:evil", "-user:x bug"}) {
      CAPTURE(q);
      auto bad = rig.reads.search(q, 10);
      REQUIRE_FALSE(bad.ok());
      CHECK(bad.error().code == ErrorCode::UsageError);
    }
    CHECK(rig.gh.reads().searchQueries.size() == 1);
  }
  SUBCASE("422 from GitHub is a usage error with its message") {
    auto bad = rig.reads.search(std::string(300, 'a'), 10);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::UsageError);
    CHECK(bad.error().message.find("HTTP 422 (Validation Failed: The search is longer than 256 characters.)") !=
          std::string::npos);
  }
}

TEST_CASE("rest reads: search rate limits, GitHub's and our own") {
  Rig rig;
  SUBCASE("403 with x-ratelimit-remaining 0 waits until x-ratelimit-reset, then succeeds") {
    rig.gh.reads().searchesBeforeLimit = 1;
    rig.gh.reads().resetIn = 40;
    REQUIRE(rig.reads.search("a", 5).ok());
    auto s = rig.reads.search("b", 5);
    REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
    REQUIRE(rig.sleeper.slept.size() == 1);
    CHECK(rig.sleeper.slept[0] >= std::chrono::seconds(39));
    CHECK(rig.sleeper.slept[0] <= std::chrono::seconds(42));
    CHECK(rig.gh.reads().searchQueries.size() == 3);
  }
  SUBCASE("429 with retry-after is retried after it") {
    rig.gh.script(failing("/search/issues", 429, R"({"message":"You have exceeded a secondary rate limit"})", 0,
                          {{"retry-after", "7"}}));
    REQUIRE(rig.reads.search("a", 5).ok());
    CHECK(rig.sleeper.slept == std::vector<milliseconds>{milliseconds(7000)});
  }
  SUBCASE("the 31st search in a minute waits for the first to leave the window") {
    for (int i = 0; i < 30; ++i) {
      REQUIRE(rig.reads.search("q" + std::to_string(i), 1).ok());
      rig.clock.t += std::chrono::seconds(1);
    }
    CHECK(rig.sleeper.slept.empty());
    REQUIRE(rig.reads.search("q30", 1).ok());
    REQUIRE(rig.sleeper.slept.size() == 1);
    CHECK(rig.sleeper.slept[0] == std::chrono::seconds(30));
    CHECK(rig.gh.reads().searchQueries.size() == 31);
  }
}

TEST_CASE("search limiter: at most 30 in any 60 s") {
  SearchLimiter limiter;
  auto t0 = std::chrono::system_clock::time_point(std::chrono::seconds(1000));
  for (int i = 0; i < 30; ++i) CHECK(limiter.reserve(t0).count() == 0);
  CHECK(limiter.reserve(t0) == std::chrono::seconds(60));
  CHECK(limiter.reserve(t0 + std::chrono::seconds(10)) == std::chrono::seconds(50));
  CHECK(limiter.reserve(t0 + std::chrono::seconds(61)).count() == 0);
}

TEST_CASE("rest reads: labels are paged, a null description reads as empty") {
  Rig rig;
  for (int i = 0; i < 130; ++i) rig.gh.reads().labelDescriptions["l" + std::to_string(i)] = "d";
  // The fake's labels: "bug" (no description) plus l0..l129 created through the API.
  json::array all;
  for (int i = 0; i < 130; ++i) all.emplace_back("l" + std::to_string(i));
  rig.gh.addPull(1, kHead, "");
  auto added = rig.api.post("/repos/octo/hello/issues/1/labels", json::object{{"labels", all}},
                            [] { return Result<std::optional<HttpResponse>>(std::nullopt); });
  REQUIRE(added.ok());
  auto labels = rig.reads.labels();
  REQUIRE_MESSAGE(labels.ok(), (labels.ok() ? "" : labels.error().message));
  CHECK(labels->size() == 131);
  CHECK(rig.gh.count("GET", "/repos/octo/hello/labels") == 2);
  bool sawBug = false;
  for (const auto& l : *labels)
    if (l.name == "bug") {
      sawBug = true;
      CHECK(l.description.empty());
      CHECK(l.color == "d73a4a");
    }
  CHECK(sawBug);
}

TEST_CASE("rest reads: ancestry from compare's status") {
  Rig rig;
  rig.gh.reads().compares["aaa...bbb"] = {"ahead", {}, ""};
  rig.gh.reads().compares["ccc...bbb"] = {"diverged", {}, ""};
  CHECK(rig.reads.isAncestor("aaa", "bbb").value());
  CHECK_FALSE(rig.reads.isAncestor("ccc", "bbb").value());
}

TEST_CASE("read shapes: a webhook's pull_request and a mistyped field") {
  auto ok = pullFromJson(json::parse(R"({"number":2,"title":"t","body":null,"user":null,"draft":false,
    "head":{"sha":"h","ref":"f"},"base":{"sha":"b","ref":"main"},"labels":[{"name":"x"}]})"));
  REQUIRE(ok.ok());
  CHECK(ok->author == "ghost");
  CHECK(ok->authorAssociation == "NONE");
  auto bad = pullFromJson(
      json::parse(R"({"number":"2","title":"t","head":{"sha":"h","ref":"f"},"base":{"sha":"b","ref":"m"}})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().location->path == "number");
  auto files = filesFromJson(json::parse(R"([{"filename":"a","status":"exploded"}])").as_array());
  REQUIRE_FALSE(files.ok());
  CHECK(files.error().message.find("unknown file status 'exploded'") != std::string::npos);
}
