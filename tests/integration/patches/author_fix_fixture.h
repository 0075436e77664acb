// examples/author-fix as a pull request of octo/hello against the local
// GitHub server (docs/author-steps.md, "A worked example"): its repository
// made by make-repo.sh with a taskpack of the test's, `loopwright run
// --publish github` of it, and what a refused change must leave on GitHub.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"

namespace lw::test {

inline const std::string kExample = std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/author-fix";
inline const std::string kStep = "fix-format";

inline bool backendAvailable(const std::string& backend) {
  const std::string probe = capture(std::string(LOOPWRIGHT_BIN) + " sandbox backends 2>&1");
  return lw::test::requireHost(probe.find(backend + ": available") != std::string::npos,
                               backend + " is not available on this host");
}

// The example's taskpack with each `from` replaced by its `to` (each must be
// there), run on `backend` only.
inline std::string exampleTaskpack(const std::string& backend,
                                   const std::vector<std::pair<std::string, std::string>>& edits = {}) {
  std::string text = readFile(kExample + "/.loopwright/taskpack.yaml");
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
  }
  const auto spec = text.find("spec:\n") + 6;
  return text.insert(spec, "  sandbox: {preferredBackends: [" + backend + "]}\n");
}

// The example's repository (base commit with `taskpack`, head the pull
// request) served as pull request 1 of octo/hello, with its own state dir.
struct AuthorFix {
  Scratch s;
  FakeGithub github;
  fs::path repo = s.root / "repo";
  std::string head;

  explicit AuthorFix(const std::string& taskpack) {
    writeFile(s.root / "taskpack.yaml", taskpack);
    REQUIRE(sh(kExample + "/make-repo.sh '" + repo.string() + "' '" + (s.root / "taskpack.yaml").string() + "'") == 0);
    head = git("rev-parse HEAD");
    github.addPull(1, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
  }
  std::string git(const std::string& args) const { return gitAt(repo, args); }
  static std::string gitAt(const fs::path& dir, const std::string& args) {
    std::string out = capture("git -C '" + dir.string() + "' " + args);
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  // A bare repository named like the pull request's, holding both branches,
  // as the checkout's origin.
  fs::path addOrigin() {
    const fs::path bare = s.root / "remote/octo/hello.git";
    REQUIRE(sh("git init -q --bare '" + bare.string() + "' && git -C '" + repo.string() + "' remote add origin '" +
               bare.string() + "' && git -C '" + repo.string() + "' push -q origin main feature") == 0);
    return bare;
  }
  CliRun run() {
    writeFile(s.root / "host.yaml", "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nstateDir: " +
                                        (s.root / "state").string() + "\nfloor: {allowDirectDedicated: true}\n");
    return runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path",
                   repo.string() + ".event.json", "--out", (s.root / "out").string(), "--publish", "github"},
                  {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()},
                   {"GITHUB_API_URL", github.url()},
                   {"GITHUB_TOKEN", FakeGithub::kToken},
                   {"GITHUB_STEP_SUMMARY", (s.root / "summary.md").string()}});
  }
  boost::json::object step() const { return stepOf(runJson(s.root / "out"), kStep); }
  // What the example's formatter makes of `file` at the head, run outside
  // any sandbox on a clone: what the published change must reproduce.
  std::string fixedAtHead(const std::string& file) {
    const fs::path clone = s.root / "expected";
    if (!fs::exists(clone))
      REQUIRE(sh("git clone -q '" + repo.string() + "' '" + clone.string() + "' && cd '" + clone.string() +
                 "' && sh .loopwright/fix-format.sh") == 0);
    return readFile(clone / file);
  }
  std::string fixedTreeAtHead() {
    fixedAtHead("src/greet.c");
    REQUIRE(sh("git -C '" + (s.root / "expected").string() + "' add -A") == 0);
    return gitAt(s.root / "expected", "write-tree");
  }
};

// No request the fake GitHub received carries any of the change.
inline void requirePublishedNowhere(const FakeGithub& github) {
  for (const auto& r : github.requests()) {
    INFO(r.method << " " << r.path << "\n" << r.body);
    CHECK(r.body.find("suggestion") == std::string::npos);
    CHECK(r.body.find("diff --git") == std::string::npos);
    CHECK(r.body.find("```diff") == std::string::npos);
    CHECK(r.body.find("loopwright/patch") == std::string::npos);
    CHECK(r.body.find("proposed change") == std::string::npos);
  }
  CHECK(github.reviewComments(1).empty());
  CHECK(github.issueComments(1).empty());
}

}  // namespace lw::test
