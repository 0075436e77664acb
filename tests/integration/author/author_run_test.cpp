// `loopwright run` of author steps (docs/author-steps.md): each works in its
// own worktree under the state directory, its verified change becomes
// change.patch (applies with `git apply` on a fresh clone), and the
// orchestrator's checkout is byte for byte what it was, .git included.
#include <doctest/doctest.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/tree_snapshot.h"

using namespace lw::test;

namespace {

// A host config with its own state directory (worktrees and leases) and no floor.
std::map<std::string, std::string> authorHost(const fs::path& scratch) {
  writeFile(scratch / "host.yaml", "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nstateDir: " +
                                       (scratch / "state").string() + "\nfloor: {allowDirectDedicated: true}\n");
  return {{"LOOPWRIGHT_HOST_CONFIG", (scratch / "host.yaml").string()}};
}

// One author step `fix` running `script`, with `contract` (step keys, one a
// line, indented under the step).
std::string contractStage(const std::string& script, const std::string& contract) {
  return "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
         "        - name: fix\n          role: author\n          run: [sh, " +
         script + "]\n" + contract;
}

std::string authorStage(const std::string& script) { return contractStage(script, ""); }

bool bwrapWorks() { return sh("command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null") == 0; }

std::string backends(const std::string& list) { return "  sandbox: {preferredBackends: [" + list + "]}\n"; }

// No sandbox (direct-dedicated): the git directories are reachable, and
// only verification stands between the step and them.
const std::string kUnsandboxed =
    "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound, "
    "requiredCapabilities: [processTreeCleanup]}\n";

const char* kEdit =
    "set -e\nprintf 'one\\nTWO\\nthree\\n' > a.txt\nmkdir -p new\necho hello > new/file.txt\n"
    "printf '\\000\\001\\002\\377binary' > blob.bin\n";

std::vector<std::string> strings(const boost::json::value& v) {
  std::vector<std::string> out;
  for (const auto& s : v.as_array()) out.emplace_back(s.as_string());
  return out;
}

bool worktreesGone(const fs::path& scratch) {
  std::error_code ec;
  return !fs::exists(scratch / "state/worktrees", ec) || fs::is_empty(scratch / "state/worktrees", ec);
}

}  // namespace

TEST_CASE("run author: the change is a patch that applies to a fresh clone and the checkout is untouched" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/edit.sh"), backends("linux-bwrap"))},
                  {"a.txt", "one\ntwo\nthree\n"},
                  {"tools/edit.sh", kEdit}});
  const std::string base = capture("git -C '" + repo.string() + "' rev-parse HEAD");
  const TreeSnapshot before = snapshotTree(repo);
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto step = stepOf(runJson(s.root / "out"), "fix");
  CHECK(step.at("outcome").as_string() == "passed");
  const auto& change = step.at("change").as_object();
  CHECK(change.at("accepted").as_bool());
  CHECK(std::string(change.at("baseCommit").as_string()) + "\n" == base);
  CHECK(strings(change.at("paths")) == std::vector<std::string>{"a.txt", "blob.bin", "new/file.txt"});
  CHECK(change.at("filesChanged").as_int64() == 3);
  CHECK(change.at("linesAdded").as_int64() == 2);
  CHECK(change.at("linesDeleted").as_int64() == 1);
  CHECK(change.at("binary").as_bool());
  const fs::path patch = s.root / "out/steps/s/fix/change.patch";
  CHECK(std::string(change.at("patchFile").as_string()) == patch.string());
  CHECK(strings(change.at("binaryPaths")) == std::vector<std::string>{"blob.bin"});
  CHECK(change.at("binaryBytes").as_int64() == 10);
  CHECK(r.out.find("change: 3 files, +2 -1, binary 10 bytes, patch " + patch.string()) != std::string::npos);

  CHECK(treeDifferences(before, snapshotTree(repo)).empty());
  CHECK(worktreesGone(s.root));
  CHECK(capture("git -C '" + repo.string() + "' worktree list --porcelain | grep -c '^worktree'") == "1\n");

  fs::path clone = s.root / "clone";
  REQUIRE(sh("git clone -q '" + repo.string() + "' '" + clone.string() + "'") == 0);
  CHECK(sh("cd '" + clone.string() + "' && git apply --check '" + patch.string() + "' && git apply '" + patch.string() +
           "'") == 0);
  CHECK(readFile(clone / "a.txt") == "one\nTWO\nthree\n");
  CHECK(readFile(clone / "new/file.txt") == "hello\n");
  CHECK(readFile(clone / "blob.bin") == std::string("\0\1\2\377binary", 10));
}

TEST_CASE("run author: a step that changes nothing proposes no change" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/noop.sh"), backends("linux-bwrap"))},
                  {"tools/noop.sh", "true\n"}});
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const auto change = stepOf(runJson(s.root / "out"), "fix").at("change").as_object();
  CHECK_FALSE(change.at("accepted").as_bool());
  CHECK(change.at("refusedBecause").as_string() == "the step changed no file");
  CHECK(change.at("filesChanged").as_int64() == 0);
  CHECK(worktreesGone(s.root));
}

TEST_CASE("run author: rewriting the worktree's .git file is a violation and no patch is made" *
          doctest::test_suite("integration")) {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/redirect.sh"), kUnsandboxed)},
                  {"tools/redirect.sh", "echo changed > a.txt\necho 'gitdir: /tmp/elsewhere' > .git\n"},
                  {"a.txt", "a\n"}});
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  auto step = stepOf(runJson(s.root / "out"), "fix");
  CHECK(step.at("outcome").as_string() == "quarantined");
  CHECK(step.at("verification").as_object().at("result").as_string() == "violation");
  const auto& change = step.at("change").as_object();
  CHECK_FALSE(change.at("accepted").as_bool());
  CHECK(change.at("patchFile").as_string() == "");
  CHECK(change.at("refusedBecause").as_string().find("verification did not pass") == 0);
  CHECK_FALSE(fs::exists(s.root / "out/steps/s/fix/change.patch"));
  CHECK(readFile(repo / "a.txt") == "a\n");
  CHECK(worktreesGone(s.root));
}

TEST_CASE("run author: writing the worktree's git state (its config, the hooks) is a violation" *
          doctest::test_suite("integration")) {
  Scratch s;
  fs::path repo = s.root / "repo";
  const std::string admin = "d=$(sed 's/^gitdir: //' .git)\n";
  SUBCASE("the worktree's own config, through the .git file") {
    makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/git.sh"), kUnsandboxed)},
                    {"tools/git.sh", admin + "printf '[core]\\n\\thooksPath = /tmp\\n' > \"$d/config.worktree\"\n"}});
  }
  SUBCASE("a hook in the common git directory") {
    makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/git.sh"), kUnsandboxed)},
                    {"tools/git.sh", admin + "printf '#!/bin/sh\\n' > \"$d/../../hooks/pre-commit\"\n"}});
  }
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  auto step = stepOf(runJson(s.root / "out"), "fix");
  CHECK(step.at("outcome").as_string() == "quarantined");
  CHECK_FALSE(step.at("change").as_object().at("accepted").as_bool());
  CHECK_FALSE(fs::exists(s.root / "out/steps/s/fix/change.patch"));
  CHECK_FALSE(fs::exists(repo / ".git/hooks/pre-commit"));
  CHECK(worktreesGone(s.root));
}

TEST_CASE("run author: a .gitattributes a step without a contract writes in a subdirectory is refused, naming it" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo,
           {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/edit.sh"), backends("linux-bwrap"))},
            {"src/lib/a.c", "int a;\n"},
            {"tools/edit.sh", "printf '* binary\\n' > src/lib/.gitattributes && printf 'int b;\\n' >> src/lib/a.c\n"}});
  const TreeSnapshot before = snapshotTree(repo);
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  CHECK(r.status == 5);
  auto step = stepOf(runJson(s.root / "out"), "fix");
  CHECK(step.at("outcome").as_string() == "quarantined");
  CHECK(step.at("verification").as_object().at("violation").as_string() == "PATH_POLICY_VIOLATION");
  const auto& change = step.at("change").as_object();
  CHECK_FALSE(change.at("accepted").as_bool());
  CHECK(change.at("refusedBecause").as_string() ==
        "changed src/lib/.gitattributes: .gitattributes and .gitignore files the contract does not list in "
        "gitRuleFiles");
  CHECK_FALSE(change.at("binary").as_bool());  // a.c is text: the step's `binary` is not read
  CHECK(change.at("linesAdded").as_int64() == 2);
  CHECK(treeDifferences(before, snapshotTree(repo)).empty());
  CHECK(worktreesGone(s.root));
}

TEST_CASE("run author: a new file the step's own .gitignore hides is part of the change" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(contractStage("tools/edit.sh",
                                                                       "          writable: [\"src/**\"]\n"
                                                                       "          gitRuleFiles: [src/.gitignore]\n"),
                                                         backends("linux-bwrap"))},
                  {".gitignore", "*.o\n"},
                  {"src/a.c", "int a;\n"},
                  {"tools/edit.sh",
                   "printf 'hidden.c\\n' > src/.gitignore && printf 'int h;\\n' > src/hidden.c && "
                   "printf 'obj\\n' > src/a.o\n"}});
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto change = stepOf(runJson(s.root / "out"), "fix").at("change").as_object();
  CHECK(change.at("accepted").as_bool());
  // src/a.o stays out: the checkout's own .gitignore ignores it.
  CHECK(strings(change.at("paths")) == std::vector<std::string>{"src/.gitignore", "src/hidden.c"});
  fs::path clone = s.root / "clone";
  REQUIRE(sh("git clone -q '" + repo.string() + "' '" + clone.string() + "'") == 0);
  CHECK(sh("cd '" + clone.string() + "' && git apply '" + (s.root / "out/steps/s/fix/change.patch").string() + "'") ==
        0);
  CHECK(readFile(clone / "src/hidden.c") == "int h;\n");
}

TEST_CASE("run author: attributes or excludes written under the git directory are refused, not honoured" *
          doctest::test_suite("integration")) {
  Scratch s;
  fs::path repo = s.root / "repo";
  const std::string admin = "d=$(sed 's/^gitdir: //' .git)\nprintf 'more\\n' >> a.txt\nprintf 'new\\n' > b.txt\n";
  SUBCASE("the checkout's info/, which git reads for every worktree") {
    makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/git.sh"), kUnsandboxed)},
                    {"a.txt", "a\n"},
                    {"tools/git.sh", admin + "printf '*.txt -diff\\n' > \"$d/../../info/attributes\"\n"
                                             "printf 'b.txt\\n' >> \"$d/../../info/exclude\"\n"}});
  }
  SUBCASE("the worktree's own administrative directory") {
    makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(authorStage("tools/git.sh"), kUnsandboxed)},
                    {"a.txt", "a\n"},
                    {"tools/git.sh", admin + "mkdir -p \"$d/info\"\nprintf '*.txt -diff\\n' > \"$d/info/attributes\"\n"
                                             "printf 'b.txt\\n' > \"$d/info/exclude\"\n"}});
  }
  const TreeSnapshot before = snapshotTree(repo);
  auto r = runDispatch(s, repo, authorHost(s.root));
  INFO(r.out << r.err);
  CHECK(r.status == 5);
  auto step = stepOf(runJson(s.root / "out"), "fix");
  CHECK(step.at("outcome").as_string() == "quarantined");
  CHECK(step.at("verification").as_object().at("violation").as_string() == "PATH_POLICY_VIOLATION");
  CHECK_FALSE(step.at("change").as_object().at("accepted").as_bool());
  CHECK_FALSE(fs::exists(s.root / "out/steps/s/fix/change.patch"));
  CHECK_FALSE(fs::exists(repo / ".git/info/attributes"));
  // Only the quarantine (its ref and objects) is new in the checkout.
  for (const std::string& path : treeDifferences(before, snapshotTree(repo)))
    CHECK_MESSAGE((path.starts_with(".git/refs/loopwright") || path.starts_with(".git/objects/")), path);
  CHECK(worktreesGone(s.root));
}
