// `loopwright runner …`: the GitHub Actions runner job hooks
// (ACTIONS_RUNNER_HOOK_JOB_STARTED / _COMPLETED) and their installation.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>

#include <boost/json.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "cli/policy_context.h"
#include "core/file_io.h"
#include "github/actions/workflow_commands.h"
#include "host/host_facts.h"
#include "host/job_cleanup.h"
#include "host/qualification_report.h"
#include "host/qualify.h"
#include "host/runner_dotenv.h"
#include "sandbox/process/step_env.h"

namespace lw::cli {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

int runJobStarted(const Args& a, Io& io) {
  host::QualifyOptions o;
  o.binary = host::thisBinary();
  o.runnerDir = a.value("runner-dir").value_or("");
  auto result = host::qualifyThisHost(io.env, o);
  if (!result) {
    io.out << github::errorCommand("loopwright host qualification", result.error().message) << "\n";
    return reportError(io, result.error());
  }
  if (io.json)
    printJson(io.out, result->report);
  else
    io.out << host::renderTable(result->report) << result->cacheNote << "\n";
  if (result->satisfied) return kExitOk;
  Error e = host::floorError(result->report);
  std::string all = e.message;
  for (const Diagnostic& d : e.diagnostics) all += "; " + d.message;
  io.out << github::errorCommand("loopwright: runner below the host floor", all) << "\n";
  Io text{io.out, io.err, io.env, false};
  return io.json ? kExitSandbox : reportError(text, e);
}

int runJobCompleted(const Args& a, Io& io) {
  std::optional<std::string> job = a.value("job");
  if (!job) job = sandbox::jobMarker(io.env);
  if (!job)
    return reportError(io, makeError(ErrorCode::UsageError, "no job to clean up: not in a GitHub Actions job",
                                     "run it as ACTIONS_RUNNER_HOOK_JOB_COMPLETED, or pass --job "
                                     "(the LOOPWRIGHT_JOB value the job's steps carried)"));
  host::CleanupOptions o;
  o.job = *job;
  if (auto hostConfig = loadHostConfigFrom(io.env); hostConfig) o.kubernetes = hostConfig->kubernetes;
  std::set<std::string> roots;
  for (const char* v : {"RUNNER_TEMP", "TMPDIR"})
    if (auto p = io.env.get(v); p && !p->empty() && (*p)[0] == '/') roots.insert(*p);
  roots.insert("/tmp");
  o.tempRoots.assign(roots.begin(), roots.end());
  host::CleanupReport r = host::cleanUpJob(io.env, o);
  if (io.json) {
    auto arr = [](const std::vector<std::string>& v) {
      json::array out;
      for (const auto& s : v) out.push_back(json::string(s));
      return out;
    };
    printJson(io.out, json::object{{"job", *job},
                                   {"killed", arr(r.killed)},
                                   {"containersRemoved", arr(r.containers)},
                                   {"tempDirsRemoved", arr(r.tempDirs)},
                                   {"cgroupsRemoved", arr(r.cgroups)},
                                   {"podsDeleted", arr(r.pods)},
                                   {"problems", arr(r.problems)}});
  } else {
    io.out << "loopwright: cleaned up after job " << *job << ": " << r.killed.size() << " process(es) killed, "
           << r.containers.size() << " container(s) removed, " << r.tempDirs.size() << " temp dir(s) removed\n";
    for (const auto& k : r.killed) io.out << "  killed " << k << "\n";
    for (const auto& c : r.containers) io.out << "  removed container " << c << "\n";
    for (const auto& t : r.tempDirs) io.out << "  removed " << t << "\n";
    for (const auto& c : r.cgroups) io.out << "  removed cgroup " << c << "\n";
    for (const auto& p : r.pods) io.out << "  deleted pod " << p << "\n";
    for (const auto& p : r.problems) io.out << github::warningCommand("loopwright job cleanup", p) << "\n";
  }
  // A cleanup problem is reported, not turned into a failed job: the job's
  // own result is already decided.
  return kExitOk;
}

Status writeExecutable(const fs::path& path, const std::string& text) {
  auto st = writeFileAtomic(path.string(), text);
  if (st) ::chmod(path.c_str(), 0755);
  return st;
}

int runInstallHooks(const Args& a, Io& io) {
  std::string dir = host::findRunnerDir(io.env, a.value("runner-dir").value_or(""));
  std::error_code ec;
  if (dir.empty() || !fs::exists(fs::path(dir) / ".runner", ec))
    return reportError(io, makeError(ErrorCode::UsageError,
                                     dir.empty() ? "cannot find the runner's directory (no .runner file found)"
                                                 : dir + " is not a configured runner (no .runner file)",
                                     "pass --runner-dir DIR, the directory where config.sh was run"));
  const fs::path hooks = fs::path(dir) / "loopwright-hooks";
  fs::create_directories(hooks, ec);
  const std::string binary = host::thisBinary();
  const fs::path started = hooks / "job-started.sh", completed = hooks / "job-completed.sh";
  for (const auto& [path, event] : {std::pair{started, "job-started"}, std::pair{completed, "job-completed"}})
    if (auto st = writeExecutable(path, host::hookScript(binary, event)); !st) return reportError(io, st.error());
  const fs::path envFile = fs::path(dir) / ".env";
  std::string current;
  if (fs::exists(envFile, ec)) {
    auto text = readBoundedFile(envFile.string(), 1 << 20, ErrorCode::IoError);
    if (!text) return reportError(io, text.error());
    current = std::move(text).value();
  }
  auto updated = host::withHooks(current, started.string(), completed.string(), a.flag("replace"));
  if (!updated) return reportError(io, updated.error());
  const bool changed = *updated != current;
  if (changed)
    if (auto st = writeFileAtomic(envFile.string(), *updated); !st) return reportError(io, st.error());
  if (io.json) {
    printJson(io.out, json::object{{"runnerDir", dir},
                                   {"envFile", envFile.string()},
                                   {"changed", changed},
                                   {"jobStarted", started.string()},
                                   {"jobCompleted", completed.string()}});
  } else {
    io.out << (changed ? "installed" : "already installed") << ": " << envFile.string() << "\n  "
           << host::kHookStartedKey << "=" << started.string() << "\n  " << host::kHookCompletedKey << "="
           << completed.string() << "\n"
           << (changed ? "restart the runner (./svc.sh stop && ./svc.sh start) so it reads .env again\n" : "");
  }
  return kExitOk;
}

}  // namespace

Command runnerJobStartedCommand() {
  Command c;
  c.name = "runner hook job-started";
  c.summary = "job hook: fail the job unless this host meets the floor (cached qualify)";
  c.usage = "[--runner-dir DIR]";
  c.description =
      "For ACTIONS_RUNNER_HOOK_JOB_STARTED (see 'runner install-hooks'). Runs the cached\n"
      "qualification (a fresh one when the host, loopwright or the host config changed) and\n"
      "exits 3 with a ::error:: line naming what is missing when the floor is not met.";
  c.options = {{"runner-dir", "DIR", "the runner's directory (default: found from RUNNER_TEMP)"}};
  c.run = runJobStarted;
  return c;
}

Command runnerJobCompletedCommand() {
  Command c;
  c.name = "runner hook job-completed";
  c.summary = "job hook: kill what the job's sandboxes left, remove their containers and scratch";
  c.usage = "[--job ID]";
  c.description =
      "For ACTIONS_RUNNER_HOOK_JOB_COMPLETED. Every step carries LOOPWRIGHT_JOB (the runner,\n"
      "run, attempt and job); every process still carrying this job's value is killed (pids\n"
      "verified by start time), containers carrying it are removed, and sandbox scratch in\n"
      "the temp directories is deleted. Prints what was cleaned.";
  c.options = {{"job", "ID", "the job to clean up (default: from GITHUB_* and RUNNER_NAME)"}};
  c.run = runJobCompleted;
  return c;
}

Command runnerInstallHooksCommand() {
  Command c;
  c.name = "runner install-hooks";
  c.summary = "write the job hooks into a self-hosted runner's .env (idempotent)";
  c.usage = "[--runner-dir DIR] [--replace]";
  c.description =
      "Writes loopwright-hooks/job-started.sh and job-completed.sh in the runner's directory\n"
      "and sets ACTIONS_RUNNER_HOOK_JOB_STARTED/_COMPLETED in its .env to them. Running it\n"
      "again changes nothing. A hook already pointing elsewhere is kept unless --replace.";
  c.options = {{"runner-dir", "DIR", "the runner's directory (where config.sh was run)"},
               {"replace", "", "replace job hooks that point to other scripts"}};
  c.run = runInstallHooks;
  return c;
}

}  // namespace lw::cli
