#include "pipeline/step_runner.h"

#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>

#include "core/file_io.h"
#include "guard/event.h"
#include "pipeline/coverage_output.h"
#include "pipeline/refusal_blocker.h"
#include "pipeline/step_command.h"
#include "sandbox/limits/limits_json.h"
#include "sandbox/step_env.h"
#include "verify/baseline.h"
#include "verify/check.h"
#include "verify/outputs.h"
#include "verify/secret_scanner.h"

namespace lw::pipeline {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::int64_t msSince(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

std::string stepLabel(const PlannedStep& s) { return s.policy.stage + "/" + s.policy.step; }

// Masks secrets in `text`, writes it to `path`, and returns the hits.
std::vector<verify::SecretHit> writeMaskedLog(const verify::SecretScanner& scanner,
                                              const std::string& text, const fs::path& path) {
  auto scan = scanner.scanAndMask(text);
  (void)writeFileAtomic(path.string(), scan.masked, /*sync=*/false);
  return scan.hits;
}

// Reads an output file the step may have written; nullopt when absent.
// Bounded: a step cannot make the orchestrator read more than the limit.
std::optional<Result<std::string>> readOutput(const fs::path& path, std::size_t limit) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  if (!S_ISREG(st.st_mode))
    return Result<std::string>(makeError(ErrorCode::OutputInvalid,
                                         path.filename().string() + " is not a regular file",
                                         "write the output as a plain file in LOOPWRIGHT_OUT"));
  return readBoundedFile(path.string(), limit, ErrorCode::OutputInvalid);
}


}  // namespace

std::vector<fs::path> writableRoots(const fs::path& repo, const std::vector<std::string>& globs) {
  std::vector<fs::path> roots;
  for (const std::string& g : globs) {
    std::string prefix = g.substr(0, g.find_first_of("*?["));
    prefix = prefix.substr(0, prefix.rfind('/') == std::string::npos ? 0 : prefix.rfind('/'));
    if (g.find_first_of("*?[") == std::string::npos) prefix = g;
    fs::path p = (repo / prefix).lexically_normal();
    std::error_code ec;
    if (!fs::exists(p, ec) || fs::is_symlink(p, ec)) continue;
    if (std::find(roots.begin(), roots.end(), p) == roots.end()) roots.push_back(p);
  }
  return roots;
}

StepRecord runStep(const PlannedStep& planned, const Result<sandbox::Negotiated>& negotiated,
                   sandbox::Backend* backend, StepBaseline& baselines, const RunContext& ctx,
                   const BridgeFactory& makeBridge) {
  const EffectiveStep& policy = planned.policy;
  const Step& step = *planned.step;
  const auto started = Clock::now();
  StepRecord rec;
  rec.stage = policy.stage;
  rec.step = policy.step;
  rec.role = policy.role;
  rec.networkMode = std::string(toString(policy.sandbox.networkMode));

  const fs::path stepDir = ctx.outRoot / "steps" / policy.stage / policy.step;
  const fs::path outDir = stepDir / "out";
  std::error_code ec;
  fs::create_directories(outDir, ec);
  ::chmod(stepDir.c_str(), 0700);
  rec.outDir = outDir.string();
  rec.stdoutPath = (stepDir / "stdout.log").string();
  rec.stderrPath = (stepDir / "stderr.log").string();
  auto finishRecord = [&](StepOutcome outcome, std::string message) {
    rec.outcome = outcome;
    rec.message = std::move(message);
    rec.durationMs = msSince(started);
    return rec;
  };

  if (ec) return finishRecord(StepOutcome::Error, "cannot create " + outDir.string() + ": " + ec.message());

  if (!negotiated.ok()) {
    const Error& e = negotiated.error();
    std::string why = std::string(codeName(e.code)) + ": " + e.message;
    for (const Diagnostic& d : e.diagnostics) rec.refusals.push_back(d.message);
    rec.blocker = refusalBlocker(stepLabel(planned), e, "nothing ran; " + stepDir.string());
    return finishRecord(StepOutcome::Refused, why);
  }
  if (backend == nullptr)
    return finishRecord(StepOutcome::Error, "negotiated backend " +
                                                std::string(toString(negotiated->backend)) +
                                                " is not in this build's registry");
  rec.backend = std::string(toString(negotiated->backend));
  for (Capability c : negotiated->enforced) rec.enforced.emplace_back(toString(c));
  for (const auto& r : negotiated->refused)
    rec.refusals.push_back(std::string(toString(r.backend)) + ": " + r.reason);

  auto command = stepCommand(step, ctx.selfExe, negotiated->backend == BackendId::Docker);
  if (!command) return finishRecord(StepOutcome::Refused, command.error().message);

  // Baseline before anything of the step can run (taken now, or already by
  // the group of steps this one runs beside).
  const auto& baseline = baselines.get();
  if (!baseline) return finishRecord(StepOutcome::Error, "baseline: " + baseline.error().message);

  std::atomic<pid_t> stepPid{0};
  std::atomic<bool> running{false};
  std::atomic<bool> stopRequested{false};
  auto onStop = [&](const guard::Event&) {
    // The step ends now: killing its main process makes the supervisor take
    // down every descendant. Only while it runs, so no recycled pid is hit;
    // a stop that comes before `running` is seen by the launcher below.
    stopRequested = true;
    if (running.load()) ::kill(stepPid.load(), SIGKILL);
  };
  // A container cannot be handed a descriptor, nor see host files outside
  // its binds: its bridge listens on a socket in its out dir (private to
  // this user), which the container's init connects to fd 3 before the step
  // starts; it gets a copy of the event there and runs the host admin's
  // pinned image.
  const bool container = negotiated->backend == BackendId::Docker;
  std::string socketPath;
  fs::path eventFile = ctx.eventFile;
  if (container) {
    ::chmod(outDir.c_str(), 0700);
    socketPath = (outDir / "bridge.sock").string();
    eventFile = outDir / "event.json";
    fs::copy_file(ctx.eventFile, eventFile, fs::copy_options::overwrite_existing, ec);
    if (ec) return finishRecord(StepOutcome::Error, "cannot copy the event: " + ec.message());
  }
  auto bridge = makeBridge(planned, ctx, onStop, socketPath);
  if (!bridge) return finishRecord(StepOutcome::Error, "bridge: " + bridge.error().message);

  sandbox::StepSpec spec;
  spec.argv = command->argv;
  spec.workspace = ctx.repo;
  spec.workspaceWritable = policy.role == Role::Author && step.writable.empty();
  if (policy.role == Role::Author) spec.writablePaths = writableRoots(ctx.repo, step.writable);
  for (const auto& p : policy.sandbox.protectedPaths) spec.protectedPaths.push_back(ctx.repo / p);
  for (const auto& p : policy.sandbox.deniedReadPaths) spec.deniedReadPaths.emplace_back(p);
  spec.outDir = outDir;
  spec.workdir = ctx.repo;
  spec.network = policy.sandbox.networkMode;
  if (container) {
    spec.image = policy.sandbox.runtimeProfile ? policy.sandbox.runtimeProfile->image : "";
  } else {
    spec.readOnlyPaths = {ctx.eventFile, ctx.selfExe};
    spec.readOnlyPaths.insert(spec.readOnlyPaths.end(), command->readOnlyPaths.begin(),
                              command->readOnlyPaths.end());
    spec.passFd = (*bridge)->stepFd();
  }
  spec.maxOutputBytes = static_cast<std::size_t>(policy.limits.maxOutputBytes);
  spec.limits = policy.resources;
  rec.limits = sandbox::limits::toJson(backend->limitsEnforcement(spec.limits));
  std::map<std::string, std::string> stepVars = {
      {"LOOPWRIGHT_OUT", outDir.string()},
      {"LOOPWRIGHT_EVENT", eventFile.string()},
      {"LOOPWRIGHT_BRIDGE", container ? socketPath : "fd:3"},
      {"LOOPWRIGHT_STEP", stepLabel(planned)},
      {"LOOPWRIGHT_RUN_ID", ctx.runId},
      {"HOME", outDir.string()}};
  if (!container) stepVars["LOOPWRIGHT_BIN"] = ctx.selfExe.string();  // not in the image
  spec.env = sandbox::stepEnvironment(*ctx.env, stepVars);

  auto process = backend->launch(spec);
  (*bridge)->closeStepEnd();
  if (!process) {
    (void)(*bridge)->finish();
    return finishRecord(StepOutcome::Error, "launch: " + process.error().message);
  }
  stepPid = (*process)->pid();
  rec.sandboxNotes = (*process)->planNotes();
  running = true;
  if (stopRequested.load()) ::kill(stepPid.load(), SIGKILL);
  auto exit = (*process)->wait(started + std::chrono::milliseconds(policy.limits.wallTimeMs));
  running = false;
  BridgeOutcome bridged = (*bridge)->finish();

  rec.exitStatus = exit.status();
  rec.timedOut = exit.timedOut;
  rec.descendantsKilled = exit.descendantsKilled;
  rec.guardrails = bridged.events;
  rec.toolCalls = bridged.toolCalls;
  rec.modelCalls = bridged.modelCalls;
  rec.tokensUsed = bridged.tokensUsed;

  // Logs, masked before they are written anywhere.
  const verify::SecretScanner& scanner = *ctx.secrets;
  std::vector<Finding> leaks;
  for (const auto& [data, path, truncated] :
       {std::tuple{&(*process)->stdoutData(), rec.stdoutPath, &rec.stdoutTruncated},
        std::tuple{&(*process)->stderrData(), rec.stderrPath, &rec.stderrTruncated}}) {
    *truncated = data->truncated();
    for (const auto& hit : writeMaskedLog(scanner, data->data, path)) {
      leaks.push_back(verify::secretLeakFinding(hit, rec.step, fs::path(path).filename().string()));
      ++rec.secretsMasked;
    }
  }

  // Verification: what the step did to the repository, by its role.
  verify::CheckPolicy checkPolicy;
  checkPolicy.role = policy.role;
  // An author without `writable:` may write the whole workspace (protected
  // paths aside), exactly what its sandbox allowed.
  checkPolicy.writableGlobs = step.writable.empty() ? std::vector<std::string>{"**"} : step.writable;
  checkPolicy.protectedGlobs = policy.sandbox.protectedPaths;
  checkPolicy.runId = ctx.runId;
  checkPolicy.stepName = policy.stage + "-" + policy.step;
  checkPolicy.restore = true;
  auto report = baselines.check(checkPolicy);
  if (!report) {
    rec.verification = "not-run";
    rec.repositoryIntact = false;
    return finishRecord(StepOutcome::Error, "verification: " + report.error().message);
  }
  rec.verificationReport = verify::toJson(*report, *baseline);
  rec.verification = report->ok() ? "passed" : "violation";

  // Outputs: files in LOOPWRIGHT_OUT and what came through the bridge.
  std::vector<Finding> findings = bridged.findings;
  std::string outputProblem;
  const auto limit = static_cast<std::size_t>(policy.limits.maxOutputBytes);
  if (auto text = readOutput(outDir / "findings.json", limit)) {
    auto parsed = *text ? verify::parseFindings(**text, rec.step) : Result<std::vector<Finding>>(text->error());
    if (parsed) findings.insert(findings.end(), parsed->begin(), parsed->end());
    else outputProblem = parsed.error().message;
  }
  std::optional<TriageResult> triage;
  if (auto text = readOutput(outDir / "triage.json", limit)) {
    auto parsed = *text ? verify::parseTriage(**text, rec.step) : Result<TriageResult>(text->error());
    if (parsed) triage = *parsed;
    else outputProblem = parsed.error().message;
  }
  for (auto& f : findings) f.step = rec.step;
  for (const auto& hit : verify::maskFindings(scanner, findings)) {
    leaks.push_back(verify::secretLeakFinding(hit, rec.step, "findings"));
    ++rec.secretsMasked;
  }
  if (triage) {
    auto masked = scanner.scanAndMask(triage->comment);
    for (const auto& hit : masked.hits) {
      leaks.push_back(verify::secretLeakFinding(hit, rec.step, "triage.json"));
      ++rec.secretsMasked;
    }
    triage->comment = masked.masked;
  }

  const std::string where = "output in " + outDir.string() + ", logs in " + stepDir.string();
  if (!report->ok()) {
    rec.violationCode = std::string(codeName(*report->violation));
    rec.quarantineRef = report->quarantineRef;
    rec.repositoryIntact = report->restored;
    Error e = verify::toError(*report);
    rec.blocker = guard::blockerLine(
        "step " + stepLabel(planned) + " changed the repository against its role (" +
            rec.violationCode + ")",
        (report->restored ? "the repository was restored to its state before the step; "
                          : "the repository could NOT be fully restored; ") +
            (report->quarantineRef.empty() ? where : "the changes are kept under " + report->quarantineRef),
        "inspect the quarantined changes; the step's outputs were not accepted");
    rec.findings = leaks;
    return finishRecord(StepOutcome::Quarantined, e.message);
  }
  // Verified: outputs are accepted (secret-leak findings always are).
  rec.findings = findings;
  rec.findings.insert(rec.findings.end(), report->findings.begin(), report->findings.end());
  rec.findings.insert(rec.findings.end(), leaks.begin(), leaks.end());
  rec.triage = triage;
  if (auto text = readOutput(outDir / "coverage.json", kMaxCoverageBytes)) {
    auto parsed = *text ? parseCoverage(**text) : Result<github::Coverage>(text->error());
    rec.coverage = parsed ? *parsed : invalidCoverage(parsed.error());
  }
  rec.outputsAccepted = outputProblem.empty();
  if (!outputProblem.empty()) {
    rec.findings = leaks;
    rec.triage.reset();
  }

  if (bridged.stop || exit.timedOut) {
    std::string what = bridged.stop ? "step " + stepLabel(planned) + " was stopped by " +
                                          std::string(codeName(bridged.stop->code)) + " (" +
                                          bridged.stop->message + ")"
                                    : "step " + stepLabel(planned) + " ran past its wall time of " +
                                          std::to_string(policy.limits.wallTimeMs) + " ms (BUDGET_EXCEEDED)";
    if (!bridged.stop)
      rec.guardrails.push_back({"stop", "BUDGET_EXCEEDED", "wall time exceeded", rec.durationMs});
    rec.blocker = guard::blockerLine(what, where,
                                     "look at the step's calls in its logs; raise the limit only if "
                                     "the work is legitimate, otherwise fix the agent's loop");
    return finishRecord(StepOutcome::Blocked, what);
  }
  if (!outputProblem.empty())
    return finishRecord(StepOutcome::Failed, "OUTPUT_INVALID: " + outputProblem);
  if (!exit.supervisorLost.empty()) return finishRecord(StepOutcome::Failed, exit.supervisorLost);
  if (exit.status() != 0)
    return finishRecord(StepOutcome::Failed, "exited with status " + std::to_string(exit.status()));
  return finishRecord(StepOutcome::Passed, "");
}

}  // namespace lw::pipeline
