#include "cli/run_session.h"

#include <sys/stat.h>

#include <chrono>
#include <ctime>
#include <thread>

#include "cli/error_report.h"
#include "cli/policy_context.h"
#include "cli/taskpack_source.h"
#include "core/executables.h"
#include "core/file_io.h"
#include "github/actions/actions_files.h"
#include "github/actions/workflow_commands.h"
#include "host/k8s_pod_setup.h"
#include "lease/open_store.h"
#include "pipeline/review/incremental_review.h"
#include "pipeline/stage_loop.h"
#include "pipeline/step/bridge_adapter.h"
#include "policy/load/taskpack_loader.h"
#include "policy/resolve/lane_binding.h"
#include "sandbox/registry/backend_registry.h"

namespace lw::cli {
namespace fs = std::filesystem;

namespace {

std::string isoNow() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

// --fail-on (the action's fail-on input) overrides the taskpack's
// publication.failOn for the exit status and the check runs alike.
Result<std::optional<FailOn>> failOnOption(const Args& args) {
  auto given = args.value("fail-on");
  if (!given) return std::optional<FailOn>{};
  if (*given == "error") return std::optional<FailOn>{FailOn::Error};
  if (*given == "warning") return std::optional<FailOn>{FailOn::Warning};
  if (*given == "never") return std::optional<FailOn>{FailOn::Never};
  return makeError(ErrorCode::UsageError, "--fail-on '" + *given + "' is not a level",
                   "use --fail-on error, warning or never");
}

// The taskpack to trust: --taskpack when given; for pull requests the base
// commit's; otherwise the working tree's.
Result<Taskpack> loadTrustedTaskpack(const Args& args, const fs::path& repo, const pipeline::EventInput& event) {
  TaskpackLoadOptions options{currentUserHome()};
  if (args.value("taskpack")) return loadTaskpack(*args.value("taskpack"), options);
  auto relative = repositoryTaskpackPath(args);
  if (!relative) return relative.error();
  if (isPullRequestEvent(event.name) && !event.baseSha.empty()) {
    auto text = readTaskpackAtCommit(repo.string(), event.baseSha, *relative);
    if (!text) return text.error();
    return parseTaskpack(text->text, text->source, options);
  }
  return loadTaskpack((repo / *relative).string(), options);
}

// What every step of the run shares: the checkout, the out dir, the event
// (a read-only copy the steps see), this binary, the secrets to mask, and on
// a synchronize the head an earlier review covered.
Result<pipeline::RunContext> runContext(const std::string& runId, const fs::path& repo, const fs::path& out,
                                        const pipeline::EventInput& event, Io& io) {
  pipeline::RunContext ctx;
  ctx.runId = runId;
  ctx.repo = repo;
  ctx.outRoot = out;
  ctx.eventFile = out / "event.json";
  // A scratch copy for the steps: nothing to keep if the machine goes down,
  // so no fsync (it costs 0.5-4 ms on ext4, before any step can start).
  if (auto s = writeFileAtomic(ctx.eventFile.string(), event.payloadText, /*sync=*/false); !s) return s.error();
  ::chmod(ctx.eventFile.c_str(), 0444);
  ctx.event = event.payload;
  ctx.githubEvent = event.typed;
  // Steps run `$LOOPWRIGHT_BIN bridge stdio`: the lean front when it is
  // installed beside this engine, else this very executable.
  std::error_code ec;
  ctx.selfExe = siblingExecutable(kFrontExecutable);
  if (!fs::exists(ctx.selfExe, ec)) ctx.selfExe = runningExecutable();
  ctx.env = &io.env;
  ctx.secrets = std::make_shared<const verify::SecretScanner>(pipeline::secretValues(io.env));
  // On a synchronize, the head our last review covered whole: the steps'
  // GitHub reads diff from it (docs/review-coverage.md).
  if (event.typed)
    ctx.lastReviewedHead = pipeline::lastReviewedHeadFor(*event.typed, repo, io.env, io.json ? io.err : io.out);
  return ctx;
}

// Runs the plan's stages and fills in the record's run-wide fields.
pipeline::RunRecord executePlan(const pipeline::RunPlan& plan, const RunInputs& in, pipeline::RunContext& ctx,
                                const pipeline::EventInput& event, const std::string& runId, const fs::path& out,
                                Io& io) {
  // Author steps' worktrees and their leases (docs/author-steps.md).
  ctx.stateDir = pipeline::stateDirFor(in.host.present, in.host.stateDir, io.env);
  // The host config's store (docs/host-config.md, `leases:`); without one,
  // author steps are refused with LEASE_UNAVAILABLE.
  auto opened = lease::openStore(in.host.leases, ctx.stateDir);
  std::unique_ptr<lease::Store> leases = opened ? std::move(*opened) : nullptr;
  ctx.leases = leases.get();

  auto backends = sandbox::makeBackends(io.env, host::registryOptionsFor(in.host, io.env));
  auto bridges = pipeline::makeBridgeFactory(in.taskpack, io.env);
  auto started = std::chrono::steady_clock::now();
  std::string startedAt = isoNow();
  pipeline::RunRecord record = pipeline::runPlan(plan, backends, ctx, bridges, io.json ? io.err : io.out);
  record.runId = runId;
  record.taskpack = in.taskpack.file;
  record.eventName = event.name;
  record.eventAction = event.action;
  record.repo = in.repo.string();
  record.outDir = out.string();
  record.startedAt = startedAt;
  record.durationMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  record.incrementalFrom = ctx.lastReviewedHead;
  ctx.leases = nullptr;  // the store closes on return
  return record;
}

// A plan whose steps run with no sandbox (direct-dedicated by default off a
// GitHub-hosted runner) says so in the log and the step summary.
void warnIfUnsandboxed(const pipeline::RunPlan& plan, Io& io) {
  auto warning = pipeline::unsandboxedDefaultWarning(plan, io.env.get("RUNNER_ENVIRONMENT"));
  if (!warning) return;
  (io.json ? io.err : io.out) << github::warningCommand("loopwright: steps run with no sandbox", *warning) << "\n";
  if (auto summary = io.env.get("GITHUB_STEP_SUMMARY"); summary && !summary->empty())
    if (auto written = github::appendStepSummary(*summary, github::warningSummaryLine(*warning)); !written)
      io.err << "loopwright: " << written.error().message << "\n";
}

}  // namespace

Result<RunInputs> loadRunInputs(const Args& args, const pipeline::EventInput& event, Io& io,
                                const RunOverrides& overrides) {
  std::error_code ec;
  RunInputs in;
  in.repo = fs::canonical(args.value("repo").value_or("."), ec);
  if (ec)
    return makeError(ErrorCode::UsageError, "repository " + args.value("repo").value_or(".") + " not found",
                     "give --repo the checkout to run on");
  auto host = loadHostConfigFrom(io.env);
  if (!host) return host.error();
  in.host = std::move(*host);
  auto failOn = failOnOption(args);
  if (!failOn) return failOn.error();
  auto taskpack = loadTrustedTaskpack(args, in.repo, event);
  if (!taskpack) return taskpack.error();
  in.taskpack = std::move(*taskpack);
  if (*failOn) in.taskpack.publication.failOn = **failOn;
  if (overrides.modelLane)
    if (auto bound = bindModelSteps(in.taskpack, *overrides.modelLane); !bound) return bound.error();
  auto policies = resolvePolicies(in.taskpack, in.host, resolveContextFrom(io.env));
  if (!policies) return policies.error();
  in.policies = std::move(*policies);
  return in;
}

Result<ExecutedRun> executeRun(const Args& args, const pipeline::EventInput& event, const std::string& eventName,
                               const std::string& action, Io& io, const RunOverrides& overrides) {
  auto in = loadRunInputs(args, event, io, overrides);
  if (!in) return in.error();
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  pipeline::RunPlan plan = pipeline::buildPlan(in->taskpack, in->policies, eventName, action, cores);
  warnIfUnsandboxed(plan, io);
  std::string runId = pipeline::makeRunId(io.env);
  auto out = pipeline::prepareOutDir(args.value("out"), in->repo, runId, io.env);
  if (!out) return out.error();
  auto ctx = runContext(runId, in->repo, *out, event, io);
  if (!ctx) return ctx.error();
  pipeline::RunRecord record = executePlan(plan, *in, *ctx, event, runId, *out, io);
  return ExecutedRun{std::move(*in), std::move(plan), std::move(record), *out};
}

}  // namespace lw::cli
