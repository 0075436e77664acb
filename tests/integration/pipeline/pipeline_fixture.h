// Helpers for the `loopwright run` end-to-end tests: scratch directories,
// generated repositories with taskpacks, and reading run.json.
#pragma once

#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <boost/json.hpp>

#include "support/host_requirement.h"
#include "support/run_cli.h"
#include "support/temp_dir.h"

namespace lw::test {

namespace fs = std::filesystem;

using Scratch = TempDir;

inline void writeFile(const fs::path& p, const std::string& content, bool executable = false) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << content;
  if (executable) fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

inline std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command, returning its exit status.
inline int sh(const std::string& command) { return std::system(command.c_str()); }

// What `command` prints on stdout.
inline std::string capture(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  char buf[4096];
  for (std::size_t n; p && (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  if (p) ::pclose(p);
  return out;
}

// A git repository at `dir` whose only commit holds `files`.
inline void makeRepo(const fs::path& dir, const std::map<std::string, std::string>& files) {
  for (const auto& [name, content] : files) writeFile(dir / name, content, name.ends_with(".sh"));
  sh("cd '" + dir.string() +
     "' && git init -q -b main && git add -A && "
     "git -c user.name=t -c user.email=t@invalid commit -qm base");
}

inline std::string taskpack(const std::string& stages, const std::string& specExtra = "") {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specExtra +
         "  stages:\n" + stages;
}

inline boost::json::value runJson(const fs::path& out) { return boost::json::parse(readFile(out / "run.json")); }

// The step record `step` of the first stage that has it.
inline boost::json::object stepOf(const boost::json::value& run, const std::string& step) {
  for (const auto& stage : run.at("stages").as_array())
    for (const auto& s : stage.at("steps").as_array())
      if (s.at("step").as_string() == step) return s.as_object();
  return {};
}

inline std::map<std::string, std::string> hostEnv(const fs::path& scratch) {
  // A floor that forbids nothing (a host config forbids direct-dedicated
  // unless it says otherwise), and no credentials of this machine leak in.
  writeFile(scratch / "host.yaml",
            "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\n");
  return {{"LOOPWRIGHT_HOST_CONFIG", (scratch / "host.yaml").string()}};
}

}  // namespace lw::test

namespace lw::test {

// `loopwright run` of `repo` on a workflow_dispatch event, its run.json in
// scratch/out, with no host floor unless `env` names a host config.
inline CliRun runDispatch(const TempDir& scratch, const fs::path& repo, std::map<std::string, std::string> env = {}) {
  if (!env.contains("LOOPWRIGHT_HOST_CONFIG")) env.merge(hostEnv(scratch.root));
  return runCli(
      {"run", "--repo", repo.string(), "--event-name", "workflow_dispatch", "--out", (scratch.root / "out").string()},
      env);
}

// The sandbox a non-root user gets differs (user namespaces): the same runs
// as the unprivileged `lwtest`, when this test runs as root and it exists.
inline bool lwtestWorks() {
  return ::getuid() == 0 && ::getpwnam("lwtest") != nullptr &&
         sh("setpriv --reuid=lwtest --regid=lwtest --clear-groups bwrap --ro-bind / / true 2>/dev/null") == 0;
}

// `loopwright run` of `repo` as lwtest, everything under `scratch` its own.
inline CliRun runDispatchAsLwtest(const TempDir& scratch, const fs::path& repo,
                                  std::map<std::string, std::string> env) {
  REQUIRE(sh("chown -R lwtest:lwtest '" + scratch.root.string() + "'") == 0);
  env["HOME"] = (scratch.root / "home").string();
  lw::sandbox::process::SpawnRequest req;
  req.argv = {"setpriv",        "--reuid=lwtest",
              "--regid=lwtest", "--clear-groups",
              LOOPWRIGHT_BIN,   "run",
              "--repo",         repo.string(),
              "--event-name",   "workflow_dispatch",
              "--out",          (scratch.root / "out").string()};
  env.emplace("PATH", "/usr/local/bin:/usr/bin:/bin");
  req.env = std::move(env);
  CliRun run;
  auto p = lw::sandbox::process::spawn(req);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  run.status = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(120)).status();
  run.out = (*p)->stdoutData().data;
  run.err = (*p)->stderrData().data;
  return run;
}

}  // namespace lw::test
