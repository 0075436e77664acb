#include <doctest/doctest.h>

#include <mutex>

#include "bridge/github_read_tools.h"
#include "bridge/jsonrpc.h"
#include "session_harness.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::SessionHarness;
namespace json = boost::json;

namespace {

// Answers from fixed values and records what each read was asked.
class ScriptedReader final : public GithubReader {
 public:
  Result<PullSummary> pull() override {
    calls.push_back("pull");
    PullSummary p;
    p.number = 7;
    p.title = "Fix the parser";
    p.body = "body";
    p.author = "octocat";
    p.authorAssociation = "CONTRIBUTOR";
    p.baseSha = std::string(40, 'b');
    p.headSha = std::string(40, 'c');
    p.baseRef = "main";
    p.headRef = "fix";
    p.labels = {"bug"};
    p.draft = true;
    return p;
  }
  Result<PullDiff> diff(bool full) override {
    calls.push_back(full ? "diff full" : "diff");
    return PullDiff{{"aaa", "ccc", !full}, "diff --git a/x b/x\n", false};
  }
  Result<PullFiles> files(bool full) override {
    calls.push_back(full ? "files full" : "files");
    PullFiles f{{"aaa", "ccc", false}, {}, true};
    f.files.push_back({"new.c", "old.c", FileChange::Renamed, 3, 1, false});
    f.files.push_back({"logo.png", "", FileChange::Added, 0, 0, true});
    return f;
  }
  Result<FileAtRef> file(const std::string& path, TreeSide side) override {
    calls.push_back("file " + path + " " + std::string(toString(side)));
    if (path == "missing.c") return notFound("missing.c at head");
    return FileAtRef{path, side, "f00", 12, "int main;\n", false, false};
  }
  Result<IssueThread> issue(std::optional<int> number) override {
    calls.push_back("issue " + (number ? std::to_string(*number) : std::string("event")));
    IssueThread t;
    t.number = number.value_or(7);
    t.title = "Crash";
    t.state = "open";
    t.comments.push_back({"hubot", "NONE", "+1", "2024-01-01T00:00:00Z"});
    t.commentsTruncated = true;
    return t;
  }
  Result<IssueSearch> searchIssues(const std::string& words, int max) override {
    calls.push_back("search " + words + " " + std::to_string(max));
    return IssueSearch{42, {{3, "Crash on start", "b", "closed", "https://github.com/o/r/issues/3", {"bug"}}}};
  }
  Result<std::vector<RepoLabel>> labels() override {
    calls.push_back("labels");
    return std::vector<RepoLabel>{{"bug", "Something is broken", "d73a4a"}};
  }
  std::vector<std::string> calls;
};

struct Rig {
  explicit Rig(std::vector<std::string> grants = githubReadToolNames())
      : reader(std::make_shared<ScriptedReader>()), h(std::move(grants)) {
    for (Tool& t : githubReadTools(reader)) h.registry.add(std::move(t));
  }
  std::shared_ptr<ScriptedReader> reader;
  SessionHarness h;
  json::value structured(const std::string& tool, json::object args = {}) {
    auto r = h.call(tool, args);
    REQUIRE_MESSAGE(r.as_object().contains("result"), json::serialize(r));
    REQUIRE_FALSE(r.at("result").at("isError").as_bool());
    return r.at("result").at("structuredContent");
  }
  json::value error(const std::string& tool, json::object args) {
    auto r = h.call(tool, args);
    REQUIRE_MESSAGE(r.as_object().contains("error"), json::serialize(r));
    return r.at("error");
  }
};

}  // namespace

TEST_CASE("github read tools: github.pull has the contract's fields") {
  Rig rig;
  auto p = rig.structured("github.pull");
  CHECK(p == json::parse(R"({"number":7,"title":"Fix the parser","body":"body","author":"octocat",
    "authorAssociation":"CONTRIBUTOR","baseSha":")" +
                         std::string(40, 'b') + R"(","headSha":")" + std::string(40, 'c') +
                         R"(","baseRef":"main","headRef":"fix","labels":["bug"],"draft":true})"));
}

TEST_CASE("github read tools: diff and files pass full and carry the scope") {
  Rig rig;
  auto d = rig.structured("github.pulls.diff");
  CHECK(d == json::parse(
                 R"({"base":"aaa","head":"ccc","incremental":true,"diff":"diff --git a/x b/x\n","truncated":false})"));
  CHECK(rig.structured("github.pulls.diff", {{"full", true}}).at("incremental") == false);
  auto f = rig.structured("github.pulls.files", {{"full", true}});
  CHECK(f == json::parse(R"({"base":"aaa","head":"ccc","incremental":false,"files":[
    {"path":"new.c","status":"renamed","previousPath":"old.c","additions":3,"deletions":1,"binary":false},
    {"path":"logo.png","status":"added","additions":0,"deletions":0,"binary":true}],"truncated":true})"));
  CHECK(rig.reader->calls == std::vector<std::string>{"diff", "diff full", "files full"});
}

TEST_CASE("github read tools: argument validation") {
  Rig rig;
  SUBCASE("unknown arguments are refused") {
    auto e = rig.error("github.pulls.diff", {{"fulll", true}});
    CHECK(e.at("code").as_int64() == kInvalidParams);
    CHECK(std::string(e.at("message").as_string()).find("fulll") != std::string::npos);
  }
  SUBCASE("full must be a boolean") {
    CHECK(rig.error("github.pulls.files", {{"full", "yes"}}).at("code").as_int64() == kInvalidParams);
  }
  SUBCASE("github.file needs path and a ref of base or head") {
    CHECK(rig.error("github.file", {{"path", "a.c"}}).at("code").as_int64() == kInvalidParams);
    CHECK(rig.error("github.file", {{"path", "a.c"}, {"ref", "main"}}).at("code").as_int64() == kInvalidParams);
    CHECK(rig.error("github.file", {{"path", ""}, {"ref", "head"}}).at("code").as_int64() == kInvalidParams);
  }
  SUBCASE("github.issue's number is a positive integer") {
    CHECK(rig.error("github.issue", {{"number", 0}}).at("code").as_int64() == kInvalidParams);
    CHECK(rig.error("github.issue", {{"number", "7"}}).at("code").as_int64() == kInvalidParams);
  }
  SUBCASE("github.issues.search: a query of 1 to 256 characters, maxResults 1 to 100") {
    CHECK(rig.error("github.issues.search", {}).at("code").as_int64() == kInvalidParams);
    CHECK(rig.error("github.issues.search", {{"query", std::string(257, 'a')}}).at("code").as_int64() ==
          kInvalidParams);
    CHECK(rig.error("github.issues.search", {{"query", "x"}, {"maxResults", 101}}).at("code").as_int64() ==
          kInvalidParams);
  }
  SUBCASE("github.labels and github.pull take nothing") {
    CHECK(rig.error("github.labels", {{"page", 2}}).at("code").as_int64() == kInvalidParams);
    CHECK(rig.error("github.pull", {{"number", 2}}).at("code").as_int64() == kInvalidParams);
  }
  CHECK(rig.reader->calls.empty());
}

TEST_CASE("github read tools: github.file refuses paths outside the tree and says not found") {
  Rig rig;
  for (const char* bad : {"/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a\\b"}) {
    CAPTURE(bad);
    auto r = rig.h.call("github.file", json::object{{"path", bad}, {"ref", "head"}});
    REQUIRE(r.at("result").at("isError").as_bool());
    CHECK(
        std::string(r.at("result").at("content").at(0).at("text").as_string()).starts_with("error[USAGE_ERROR]: path"));
  }
  CHECK(rig.reader->calls.empty());
  auto r = rig.h.call("github.file", json::object{{"path", "missing.c"}, {"ref", "head"}});
  CHECK(r.at("result").at("isError").as_bool());
  CHECK(r.at("result").at("content").at(0).at("text") == "error[IO_ERROR]: not found: missing.c at head");
  auto ok = rig.structured("github.file", {{"path", "src/a.c"}, {"ref", "base"}});
  CHECK(ok == json::parse(R"({"path":"src/a.c","ref":"base","sha":"f00","size":12,"content":"int main;\n",
    "truncated":false,"binary":false})"));
}

TEST_CASE("github read tools: issue, search and labels shapes") {
  Rig rig;
  CHECK(rig.structured("github.issue", {{"number", 12}}) == json::parse(R"({"number":12,"title":"Crash","body":"",
    "author":"","authorAssociation":"","state":"open","labels":[],"comments":[{"author":"hubot",
    "authorAssociation":"NONE","body":"+1","createdAt":"2024-01-01T00:00:00Z"}],"commentsTruncated":true})"));
  rig.structured("github.issue");
  CHECK(rig.structured("github.issues.search", {{"query", "crash start"}}) ==
        json::parse(R"({"total":42,"items":[{"number":3,"title":"Crash on start","body":"b","state":"closed",
          "labels":["bug"],"url":"https://github.com/o/r/issues/3"}]})"));
  rig.structured("github.issues.search", {{"query", "x"}, {"maxResults", 5}});
  CHECK(rig.structured("github.labels") ==
        json::parse(R"({"labels":[{"name":"bug","description":"Something is broken","color":"d73a4a"}]})"));
  CHECK(rig.reader->calls ==
        std::vector<std::string>{"issue 12", "issue event", "search crash start 30", "search x 5", "labels"});
}

TEST_CASE("github read tools: a step offered only its grants is refused the others") {
  Rig rig({"github.pull"});
  auto list = rig.h.request("tools/list").at("result").at("tools").as_array();
  std::vector<std::string> names;
  for (const auto& t : list) names.emplace_back(t.at("name").as_string());
  CHECK(names == std::vector<std::string>{"github.pull"});
  auto e = rig.error("github.pulls.diff", {});
  CHECK(e.at("code").as_int64() == kToolNotGranted);
  CHECK(e.at("data").at("missingGrant") == "github.pulls.diff");
  CHECK(rig.reader->calls.empty());
  rig.structured("github.pull");
  CHECK(rig.reader->calls == std::vector<std::string>{"pull"});
}

TEST_CASE("github read tools: every schema forbids unknown properties") {
  auto tools = githubReadTools(std::make_shared<ScriptedReader>());
  REQUIRE(tools.size() == 7);
  for (const Tool& t : tools) {
    CAPTURE(t.name);
    CHECK(t.inputSchema.at("additionalProperties") == false);
    CHECK_FALSE(t.modelCall);
  }
}
