// The fork split's two jobs against the local GitHub server
// (docs/fork-pull-requests.md): a repository whose pull request #7 comes
// from forker/hello, the base commit's taskpack served by the contents API,
// and the two halves run as the workflows run them.
#pragma once

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"

namespace lw::test::fork {

namespace json = boost::json;

inline constexpr const char* kTaskpack = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: fork-review}
spec:
  sandbox: {preferredBackends: [linux-bwrap]}
  stages:
    - name: review
      on: [pull_request]
      steps:
        - name: flag
          run: [sh, -c, 'printf "%s" "{\"findings\":[{\"ruleId\":\"x/y\",\"severity\":\"warning\",\"message\":\"look here\",\"path\":\"src/a.py\",\"line\":2}]}" > "$LOOPWRIGHT_OUT/findings.json"']
)";

inline json::object repoJson(const std::string& owner, const std::string& name) {
  return {{"name", name}, {"full_name", owner + "/" + name}, {"owner", json::object{{"login", owner}}}};
}

inline json::object forkPullEvent(const std::string& base, const std::string& head) {
  return {
      {"action", "opened"},
      {"pull_request",
       json::object{{"number", 7},
                    {"author_association", "CONTRIBUTOR"},
                    {"labels", json::array{}},
                    {"head", json::object{{"sha", head}, {"ref", "feature"}, {"repo", repoJson("forker", "hello")}}},
                    {"base", json::object{{"sha", base}, {"ref", "main"}, {"repo", repoJson("octo", "hello")}}}}},
      {"repository", repoJson("octo", "hello")},
      {"sender", json::object{{"login", "forker"}}}};
}

// What GitHub sends the publishing workflow: pull_requests is empty for a
// fork's head (GitHub lists only the base repository's own branches).
inline json::object workflowRunEvent(const std::string& head) {
  return {{"action", "completed"},
          {"workflow_run", json::object{{"id", 4242},
                                        {"run_attempt", 1},
                                        {"event", "pull_request"},
                                        {"head_sha", head},
                                        {"head_repository", json::object{{"full_name", "forker/hello"}}},
                                        {"pull_requests", json::array{}}}},
          {"repository", repoJson("octo", "hello")}};
}

struct ForkRig {
  Scratch s;
  fs::path repo = s.root / "repo";
  std::string base, head;
  FakeGithub github;
  std::map<std::string, std::string> env;

  ForkRig() {
    makeRepo(repo, {{".loopwright/taskpack.yaml", kTaskpack}, {"README.md", "hello\n"}});
    base = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    base.pop_back();
    REQUIRE(sh("cd '" + repo.string() +
               "' && mkdir -p src && printf 'x = 1\\ny = 2\\n' > src/a.py && "
               "git add -A && git -c user.name=e -c user.email=e@invalid commit -qm pr") == 0);
    head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    head.pop_back();
    github.addPull(7, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
    github.setPullHeadRepo(7, "forker/hello");
    github.setPullBase(7, base);
    serveBaseTaskpack(kTaskpack);
    env = hostEnv(s.root);
    env["GITHUB_API_URL"] = github.url();
    env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
    fs::create_directories(s.root / "runner-temp");
  }

  // What the contents API answers for the base commit's taskpack (the
  // publishing job checks nothing out).
  void serveBaseTaskpack(const std::string& text, const std::string& path = ".loopwright/taskpack.yaml") {
    github.reads().contents[base][path] = text;
  }

  // The pull_request job: no token that could write, nothing published.
  CliRun pullRequestJob() {
    writeFile(s.root / "pr-event.json", json::serialize(forkPullEvent(base, head)));
    return runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path",
                   (s.root / "pr-event.json").string(), "--out", (s.root / "artifact").string(), "--publish", "none"},
                  env);
  }

  // The pull_request job, which must succeed and post nothing.
  void ranPullRequestJob() {
    auto pr = pullRequestJob();
    INFO(pr.out << pr.err);
    REQUIRE(pr.status == 0);
    REQUIRE(fs::exists(s.root / "artifact" / "publication.json"));
    CHECK(github.count("POST", "") == 0);
  }

  // The workflow_run job on `artifact`, with `extra` arguments.
  CliRun publishJob(const json::object& event, const fs::path& artifact, std::vector<std::string> extra = {}) {
    writeFile(s.root / "wr-event.json", json::serialize(event));
    auto e = env;
    e["GITHUB_TOKEN"] = FakeGithub::kToken;
    e["GITHUB_EVENT_NAME"] = "workflow_run";
    e["GITHUB_EVENT_PATH"] = (s.root / "wr-event.json").string();
    std::vector<std::string> args{"publish", "--from-artifact", artifact.string(), "--state-dir",
                                  (s.root / "state").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args, e);
  }

  // The requests that would have changed something on GitHub.
  std::size_t writes() const {
    std::size_t n = 0;
    for (const auto& r : github.requests()) n += r.method != "GET" ? 1 : 0;
    return n;
  }
};

}  // namespace lw::test::fork
