// `loopwright run --publish github` of an author step on a pull request
// (docs/author-steps.md, "Publishing the change"): its accepted change ends
// as review suggestions on the lines it replaces, the rest as a patch in the
// review body, and the checkout is byte for byte what it was.
#include <doctest/doctest.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"
#include "support/tree_snapshot.h"

using namespace lw::test;

namespace {

std::string lines(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += "l" + std::to_string(i) + "\n";
  return s;
}

// main: src/app.c l1-l3 and docs/notes.txt n1-n20; the pull request's head
// (feature) grows src/app.c to l1-l10. The author step rewrites lines 5 and
// 7-8 of src/app.c (on the diff) and line 10 of docs/notes.txt (not on it).
struct PullRepo {
  explicit PullRepo(const fs::path& dir, const std::string& publication) : dir(dir) {
    std::string notes;
    for (int i = 1; i <= 20; ++i) notes += "n" + std::to_string(i) + "\n";
    const std::string stage =
        "    - name: fix\n      on: [pull_request.opened]\n      steps:\n"
        "        - {name: fmt, role: author, run: [sh, tools/fix.sh]}\n";
    makeRepo(dir, {{".loopwright/taskpack.yaml",
                    taskpack(stage, "  sandbox: {preferredBackends: [linux-bwrap]}\n" + publication)},
                   {"src/app.c", lines(1, 3)},
                   {"docs/notes.txt", notes},
                   {"tools/fix.sh",
                    "set -e\nprintf 'l1\\nl2\\nl3\\nl4\\nL5\\nl6\\nl78\\nl9\\nl10\\n' > src/app.c\n"
                    "sed -i 's/^n10$/N10/' docs/notes.txt\n"}});
    base = git("rev-parse HEAD");
    writeFile(dir / "src/app.c", lines(1, 10));
    REQUIRE(sh("cd '" + dir.string() +
               "' && git checkout -q -b feature && git add -A && "
               "git -c user.name=t -c user.email=t@invalid commit -qm grow") == 0);
    head = git("rev-parse HEAD");
    diff = capture("git -C '" + dir.string() + "' diff " + base + " " + head);
  }
  std::string git(const std::string& args) const {
    std::string out = capture("git -C '" + dir.string() + "' " + args);
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  void writeEvent(const fs::path& file) const {
    writeFile(file, R"({"action": "opened", "number": 1, "pull_request": {"number": 1, "title": "grow", "state": "open",
      "user": {"login": "octocat"}, "author_association": "OWNER", "labels": [],
      "head": {"sha": ")" +
                        head + R"(", "ref": "feature", "repo": {"full_name": "octo/hello", "fork": false}},
      "base": {"sha": ")" +
                        base + R"(", "ref": "main", "repo": {"full_name": "octo/hello", "fork": false}}},
      "repository": {"name": "hello", "full_name": "octo/hello", "owner": {"login": "octo"}},
      "sender": {"login": "octocat"}})");
  }
  fs::path dir;
  std::string base, head, diff;
};

CliRun publishRun(const Scratch& s, const PullRepo& repo, FakeGithub& github) {
  repo.writeEvent(s.root / "event.json");
  auto env = hostEnv(s.root);
  env["GITHUB_API_URL"] = github.url();
  env["GITHUB_TOKEN"] = FakeGithub::kToken;
  env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
  return runCli({"run", "--repo", repo.dir.string(), "--event-name", "pull_request", "--event-path",
                 (s.root / "event.json").string(), "--out", (s.root / "out").string(), "--publish", "github"},
                env);
}

}  // namespace

TEST_CASE("run author --publish github: the change ends as suggestions on the right lines, the rest in the body" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(sh("command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null") == 0,
                  "bubblewrap cannot create a sandbox here");
  Scratch s;
  PullRepo repo(s.root / "repo", "");
  FakeGithub github;
  github.addPull(1, repo.head, repo.diff);
  const TreeSnapshot before = snapshotTree(repo.dir);

  auto r = publishRun(s, repo, github);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto reviews = github.reviews(1);
  REQUIRE(reviews.size() == 1);
  auto comments = github.reviewComments(1);
  REQUIRE(comments.size() == 1);
  const auto& c = comments[0].as_object();
  CHECK(c.at("path").as_string() == "src/app.c");
  CHECK(c.at("start_line").as_int64() == 5);
  CHECK(c.at("line").as_int64() == 8);
  CHECK(c.at("side").as_string() == "RIGHT");
  CHECK(std::string(c.at("body").as_string()).find("```suggestion\nL5\nl6\nl78\n```\n") != std::string::npos);
  // Committing the suggestion on the head gives the author's file.
  const std::string cbody(c.at("body").as_string());
  const auto from = cbody.find("```suggestion\n") + 14;
  const std::string suggested = cbody.substr(from, cbody.find("```\n", from) - from);
  const int first = static_cast<int>(c.at("start_line").as_int64()), last = static_cast<int>(c.at("line").as_int64());
  CHECK(lines(1, first - 1) + suggested + lines(last + 1, 10) == "l1\nl2\nl3\nl4\nL5\nl6\nl78\nl9\nl10\n");
  const std::string body(reviews[0].at("body").as_string());
  CHECK(body.find("+N10\n") != std::string::npos);
  CHECK(body.find("`steps/fix/fmt/change.patch`") != std::string::npos);
  CHECK(body.find(s.root.string()) == std::string::npos);  // no runner path in public text
  CHECK(treeDifferences(before, snapshotTree(repo.dir)).empty());
}

TEST_CASE("run author --publish github with patches none: nothing of the change is published" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(sh("command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null") == 0,
                  "bubblewrap cannot create a sandbox here");
  Scratch s;
  PullRepo repo(s.root / "repo", "  publication: {patches: none}\n");
  FakeGithub github;
  github.addPull(1, repo.head, repo.diff);
  auto r = publishRun(s, repo, github);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(github.reviewComments(1).empty());
  for (const auto& review : github.reviews(1))
    CHECK(std::string(review.at("body").as_string()).find("N10") == std::string::npos);
  CHECK(github.issueComments(1).empty());
}
