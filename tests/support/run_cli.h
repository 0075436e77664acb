// Runs the built `loopwright` binary as a user would, capturing its output.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sandbox/process/spawn.h"

namespace lw::test {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs LOOPWRIGHT_BIN with `args` in `cwd` and exactly the environment `env`
// (PATH and HOME are added when missing).
inline CliRun runCli(const std::vector<std::string>& args, std::map<std::string, std::string> env = {},
                     const std::string& cwd = "") {
  sandbox::process::SpawnRequest req;
  req.argv.push_back(LOOPWRIGHT_BIN);
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  env.emplace("PATH", "/usr/local/bin:/usr/bin:/bin");
  env.emplace("HOME", "/root");
  req.env = std::move(env);
  req.cwd = cwd;
  CliRun run;
  auto p = sandbox::process::spawn(req);
  if (!p) {
    run.err = p.error().message;
    return run;
  }
  auto exit = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(120));
  run.status = exit.status();
  run.out = (*p)->stdoutData().data;
  run.err = (*p)->stderrData().data;
  return run;
}

}  // namespace lw::test
