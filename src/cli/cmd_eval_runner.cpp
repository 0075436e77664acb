#include "cli/cmd_eval_runner.h"

#include <fstream>

#include "cli/commands.h"
#include "cli/run_session.h"
#include "core/file_io.h"
#include "core/json_text.h"
#include "pipeline/run/run_setup.h"
#include "verify/git/worktree.h"

namespace lw::cli {
namespace fs = std::filesystem;

namespace {

// The caller's environment for a case's run: nothing that publishes or
// writes the job's files (the cases' pull requests do not exist on GitHub:
// the steps' reads come from the clone), and no event of the job's own.
Environment caseEnvironment(const Environment& env) {
  std::map<std::string, std::string> vars = env.all();
  for (const char* name :
       {"GITHUB_TOKEN", "GH_TOKEN", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_EVENT_PATH", "GITHUB_EVENT_NAME"})
    vars.erase(name);
  return Environment(std::move(vars));
}

// A name a worktree and a directory can take whatever the case is called.
std::string safeLabel(const std::string& name, int serial, int repeat) {
  std::string out;
  for (char ch : name) out += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-') ? ch : '_';
  return "eval-" + std::to_string(serial) + "-" + out.substr(0, 60) + "-" + std::to_string(repeat + 1);
}

}  // namespace

RunPathCaseRunner::RunPathCaseRunner(fs::path repo, fs::path out, std::optional<std::string> taskpack,
                                     const Environment& env)
    : repo_(std::move(repo)), out_(std::move(out)), taskpack_(std::move(taskpack)), env_(caseEnvironment(env)) {}

void RunPathCaseRunner::run(const eval::EvalCase& c, const eval::CaseChange& change, int repeat, eval::CaseRun& out) {
  const std::string label = safeLabel(c.name, ++serial_, repeat);
  const fs::path worktree = out_ / "worktrees" / label;
  std::error_code ec;
  fs::create_directories(worktree.parent_path(), ec);
  auto added = verify::addDetachedWorktree(repo_, label, worktree, change.head);
  if (!added) {
    out.error = added.error().message;
    return;
  }
  if (auto s = runIn(worktree, label, c, change, out); !s) out.error = s.error().message;
  if (auto removed = verify::removeWorktree(repo_, label, worktree); !removed && out.error.empty())
    out.error = removed.error().message;
}

Status RunPathCaseRunner::runIn(const fs::path& worktree, const std::string& label, const eval::EvalCase& c,
                                const eval::CaseChange& change, eval::CaseRun& out) {
  const fs::path runDir = out_ / label;
  const fs::path eventFile = out_ / (label + ".event.json");
  if (auto s = writeFileAtomic(eventFile.string(), eval::pullRequestPayload(c, change), false); !s) return s;
  auto event = pipeline::loadEventInput(c.event, eventFile.string(), env_);
  if (!event) return event.error();
  std::vector<std::string> argv = {"--repo", worktree.string(), "--out", runDir.string()};
  if (taskpack_) argv.insert(argv.end(), {"--taskpack", *taskpack_});
  auto args = Args::parse(argv, runCommand().options, 0, false);
  if (!args) return args.error();
  std::ofstream log(out_ / (label + ".log"));
  Io io{log, log, env_, false};
  auto executed = executeRun(*args, *event, event->name, event->action, io, RunOverrides{lane_});
  if (!executed && lane_ && executed.error().subject == "--lane " + *lane_) laneError_ = executed.error();
  if (!executed) return executed.error();
  eval::fillFromRecord(out, executed->record, executed->inputs.policies);
  for (const Lane& lane : executed->inputs.taskpack.lanes) prices_[lane.name] = lane.prices;
  return writeFileAtomic((runDir / "run.json").string(), toJsonText(pipeline::toJson(executed->record)) + "\n");
}

}  // namespace lw::cli
