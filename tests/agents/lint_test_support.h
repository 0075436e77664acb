// What builtin/lint's tests share: real tools found in PATH, a real git
// repository with two commits, and the tools' output captured by the same
// process runner the agent uses.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "agents/lint/lint_diagnostic.h"
#include "agents/lint/linter_process.h"
#include "support/temp_dir.h"

namespace lw::test {

inline bool toolInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::error_code ec;
    if (!dir.empty() && std::filesystem::is_regular_file(std::filesystem::path(dir) / name, ec)) return true;
  }
  return false;
}

// Runs argv in dir; the test fails when it cannot be started.
inline agents::lint::LinterRun runTool(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
  std::ostringstream log;
  auto run = agents::lint::runLinter(argv, dir, agents::lint::kMaxOutputBytes, log);
  REQUIRE_MESSAGE(run.ok(), (run.ok() ? "" : run.error().message));
  return *run;
}

// A git repository in a scratch directory: commit() writes files and
// commits them, diff() is `git diff` between two commits as GitHub would
// send it.
struct GitRepo {
  TempDir dir;
  GitRepo() {
    git({"init", "-q", "-b", "main"});
    git({"config", "user.email", "lint@test"});
    git({"config", "user.name", "lint test"});
  }
  std::string git(std::vector<std::string> args) const {
    args.insert(args.begin(), "git");
    agents::lint::LinterRun run = runTool(args, dir.root);
    REQUIRE_MESSAGE(run.exitCode == 0, "git " << args[1] << ": " << run.stderrTail);
    return run.output;
  }
  std::string commit(const std::map<std::string, std::string>& files) const {
    for (const auto& [name, content] : files) dir.write(name, content);
    git({"add", "-A"});
    git({"commit", "-q", "-m", "change"});
    std::string sha = git({"rev-parse", "HEAD"});
    return sha.substr(0, sha.find('\n'));
  }
  std::string diff(const std::string& base, const std::string& head) const {
    return git({"diff", "--no-color", "--no-ext-diff", base, head});
  }
};

}  // namespace lw::test
