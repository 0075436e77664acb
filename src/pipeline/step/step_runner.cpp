#include "pipeline/step/step_runner.h"

#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>

#include "core/file_io.h"
#include "core/step_label.h"
#include "egress/proxy.h"
#include "guard/event.h"
#include "pipeline/step/coverage_output.h"
#include "pipeline/step/refusal_blocker.h"
#include "pipeline/step/step_plan.h"
#include "pipeline/step/step_settle.h"
#include "sandbox/limits/limits_json.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

std::int64_t msBetween(guard::TimePoint from, guard::TimePoint to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

// Ends the step when a guardrail stops it (on the bridge's thread): killing
// its main process makes the supervisor take down every descendant. Only
// while it runs, so that no recycled pid is hit; a stop that comes before
// the launch is carried out right after it. A step with no local process
// (pid -1: a pod) is ended by its RunningProcess::kill, which such a backend
// makes safe from another thread; kill(-1) would signal every process of
// this user.
class KillSwitch {
 public:
  void stop() {
    stopRequested_ = true;
    if (running_.load()) end();
  }
  void launched(sandbox::process::RunningProcess& process) {
    process_ = &process;
    running_ = true;
    if (stopRequested_.load()) end();
  }
  void ended() { running_ = false; }

 private:
  void end() {
    sandbox::process::RunningProcess* p = process_.load();
    if (p->pid() > 0)
      ::kill(p->pid(), SIGKILL);
    else
      p->kill();
  }

  std::atomic<sandbox::process::RunningProcess*> process_{nullptr};
  std::atomic<bool> running_{false};
  std::atomic<bool> stopRequested_{false};
};

// The step's directory, private to this user, and its out dir.
std::optional<std::string> makeStepDirs(const StepLayout& layout) {
  std::error_code ec;
  fs::create_directories(layout.outDir, ec);
  ::chmod(layout.stepDir.c_str(), 0700);
  if (ec) return "cannot create " + layout.outDir.string() + ": " + ec.message();
  return std::nullopt;
}

// What the plan needs in the out dir before the bridge and the step: a
// private directory for the bridge's socket, the copy of the event.
std::optional<std::string> prepareOutDir(const StepPlan& plan, const RunContext& ctx) {
  if (plan.bridge == BridgeKind::SocketPath) ::chmod(plan.layout.outDir.c_str(), 0700);
  if (!plan.copyEvent) return std::nullopt;
  std::error_code ec;
  fs::copy_file(ctx.eventFile, plan.eventFile, fs::copy_options::overwrite_existing, ec);
  if (ec) return "cannot copy the event: " + ec.message();
  return std::nullopt;
}

// allow-list: the step's own egress proxy, listening before the step starts
// on the socket its relay connects to; null for every other network mode.
Result<std::unique_ptr<egress::EgressProxy>> startEgressProxy(const StepPlan& plan, const EffectiveSandbox& policy) {
  if (plan.egressSocket.empty()) return std::unique_ptr<egress::EgressProxy>{};
  return egress::startStepProxy(policy.egress, policy.egressSettings, plan.egressSocket);
}

boost::json::value egressJson(const egress::EgressProxy* proxy) {
  if (proxy == nullptr) return nullptr;
  boost::json::array out;
  for (const auto& r : proxy->finalRecords(std::chrono::milliseconds(500))) out.push_back(egress::toJson(r));
  return out;
}

NotRun refusedByNegotiation(const PlannedStep& planned, const Error& e, const StepLayout& layout) {
  const std::string label = stepLabel(planned.policy.stage, planned.policy.step);
  return {StepOutcome::Refused, std::string(codeName(e.code)) + ": " + e.message,
          refusalBlocker(label, e, "nothing ran; " + layout.stepDir.string(),
                         planned.step ? planned.step->contract.onStop : std::nullopt)};
}

void recordNegotiation(const sandbox::Negotiated& n, StepObservations& seen) {
  seen.backend = std::string(toString(n.backend));
  for (Capability c : n.enforced) seen.enforced.emplace_back(toString(c));
  for (const auto& r : n.refused) seen.refusals.push_back(std::string(toString(r.backend)) + ": " + r.reason);
}

// Launches the step with its end of the bridge, then keeps only ours.
Result<std::unique_ptr<sandbox::process::RunningProcess>> launchStep(sandbox::Backend& backend, StepPlan& plan,
                                                                     BridgeHandle& bridge) {
  if (plan.bridge == BridgeKind::Descriptor) plan.spec.passFd = bridge.stepFd();
  auto process = backend.launch(plan.spec);
  bridge.closeStepEnd();
  return process;
}

// Waits for the step until its wall time, then stops its bridge.
StepRun waitForStep(sandbox::process::RunningProcess& process, BridgeHandle& bridge, KillSwitch& kill,
                    guard::TimePoint started, const PlannedStep& planned, const RunContext& ctx) {
  kill.launched(process);
  StepRun ran;
  ran.sandboxNotes = process.planNotes();
  ran.exit = process.wait(started + std::chrono::milliseconds(planned.policy.limits.wallTimeMs));
  ran.endedAtMs = msBetween(started, nowOf(ctx));
  kill.ended();
  ran.bridged = bridge.finish();
  return ran;
}

// Masks secrets in `text` and writes it to `path`.
WrittenLog writeMaskedLog(const verify::SecretScanner& scanner, const std::string& text, const fs::path& path) {
  auto scan = scanner.scanAndMask(text);
  (void)writeFileAtomic(path.string(), scan.masked, /*sync=*/false);
  return {scan.hits, false};
}

// The step's logs and the bridge's call log, masked before they are written.
WrittenLogs writeLogs(const sandbox::process::RunningProcess& process, const BridgeOutcome& bridged,
                      const StepLayout& layout, const verify::SecretScanner& scanner) {
  WrittenLogs logs;
  logs.stdoutLog = writeMaskedLog(scanner, process.stdoutData().data, layout.stdoutLog);
  logs.stdoutLog.truncated = process.stdoutData().truncated();
  logs.stderrLog = writeMaskedLog(scanner, process.stderrData().data, layout.stderrLog);
  logs.stderrLog.truncated = process.stderrData().truncated();
  std::string calls;
  for (const std::string& line : bridged.callLog) calls += line + "\n";
  logs.callsLog = writeMaskedLog(scanner, calls, layout.callsLog);
  return logs;
}

// Reads an output file the step may have written; nullopt when absent.
// Bounded: a step cannot make the orchestrator read more than the limit.
std::optional<Result<std::string>> readOutput(const fs::path& path, std::size_t limit) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  if (!S_ISREG(st.st_mode))
    return Result<std::string>(makeError(ErrorCode::OutputInvalid, path.filename().string() + " is not a regular file",
                                         "write the output as a plain file in LOOPWRIGHT_OUT"));
  return readBoundedFile(path.string(), limit, ErrorCode::OutputInvalid);
}

// The output files; coverage.json only from a step whose changes were
// accepted (a quarantined step's outputs are not).
OutputFiles readOutputs(const fs::path& outDir, std::size_t limit, bool verified) {
  OutputFiles files;
  files.findings = readOutput(outDir / "findings.json", limit);
  files.triage = readOutput(outDir / "triage.json", limit);
  if (verified) files.coverage = readOutput(outDir / "coverage.json", kMaxCoverageBytes);
  return files;
}

// The step in its sandbox beside its bridge, until it ends: what it did and
// the logs it left, in `seen`. The reason when it could not be started (the
// step did not run).
std::optional<std::string> runInSandbox(StepObservations& seen, sandbox::Backend& backend, StepPlan& plan,
                                        const egress::EgressProxy* proxy, guard::TimePoint started,
                                        const PlannedStep& planned, const RunContext& ctx,
                                        const BridgeFactory& makeBridge) {
  KillSwitch kill;
  auto bridge = makeBridge(
      planned, ctx, [&kill](const guard::Event&) { kill.stop(); }, plan.bridgeSocket);
  if (!bridge) return "bridge: " + bridge.error().message;
  seen.limits = sandbox::limits::toJson(backend.limitsEnforcement(plan.spec.limits));
  auto process = launchStep(backend, plan, **bridge);
  if (!process) {
    (void)(*bridge)->finish();
    return "launch: " + process.error().message;
  }
  seen.ran = waitForStep(**process, **bridge, kill, started, planned, ctx);
  seen.egress = egressJson(proxy);
  seen.logs = writeLogs(**process, seen.ran->bridged, seen.layout, *ctx.secrets);
  // The sandbox never started (runsc's own error): the step did not run.
  if (const auto& failed = seen.ran->exit.launchFailure)
    seen.notRun =
        NotRun{StepOutcome::Error, "launch: " + std::string(codeName(failed->code)) + ": " + failed->message, ""};
  return std::nullopt;
}

}  // namespace

StepRecord runStep(const PlannedStep& planned, const Result<sandbox::Negotiated>& negotiated, sandbox::Backend* backend,
                   StepBaseline& baselines, const RunContext& ctx, const BridgeFactory& makeBridge,
                   const StepWorkspace* workspace) {
  const auto started = nowOf(ctx);
  StepObservations seen;
  seen.planned = &planned;
  seen.layout = stepLayout(ctx.outRoot, planned.policy);
  auto settle = [&] {
    seen.durationMs = msBetween(started, nowOf(ctx));
    return settleStep(seen, *ctx.secrets);
  };
  auto notRun = [&](StepOutcome outcome, std::string message) {
    seen.notRun = NotRun{outcome, std::move(message), ""};
    return settle();
  };

  if (auto failed = makeStepDirs(seen.layout)) return notRun(StepOutcome::Error, *failed);
  if (!negotiated) {
    for (const Diagnostic& d : negotiated.error().diagnostics) seen.refusals.push_back(d.message);
    seen.notRun = refusedByNegotiation(planned, negotiated.error(), seen.layout);
    return settle();
  }
  const std::string backendName(toString(negotiated->backend));
  if (backend == nullptr)
    return notRun(StepOutcome::Error, "negotiated backend " + backendName + " is not in this build's registry");
  recordNegotiation(*negotiated, seen);
  auto plan = planStep(planned, backend->traits(), backendName, ctx, hostLookups(), workspace);
  if (!plan) return notRun(StepOutcome::Refused, plan.error().message);
  // Baseline before anything of the step can run (taken now, or already by
  // the group of steps this one runs beside).
  const auto& baseline = baselines.get();
  if (!baseline) return notRun(StepOutcome::Error, "baseline: " + baseline.error().message);
  if (auto failed = prepareOutDir(*plan, ctx)) return notRun(StepOutcome::Error, *failed);
  auto proxy = startEgressProxy(*plan, planned.policy.sandbox);
  if (!proxy) return notRun(StepOutcome::Error, "egress proxy: " + proxy.error().message);

  if (auto failed = runInSandbox(seen, *backend, *plan, proxy->get(), started, planned, ctx, makeBridge))
    return notRun(StepOutcome::Error, *failed);
  seen.check = baselines.check(checkPolicyFor(planned, ctx.runId));
  seen.baseline = &*baseline;
  if (*seen.check)
    seen.outputs = readOutputs(seen.layout.outDir, static_cast<std::size_t>(planned.policy.limits.maxOutputBytes),
                               (*seen.check)->ok());
  return settle();
}

StepRecord notRunRecord(const PlannedStep& planned, const RunContext& ctx, StepOutcome outcome, std::string why) {
  StepObservations seen;
  seen.planned = &planned;
  seen.layout = stepLayout(ctx.outRoot, planned.policy);
  seen.notRun = NotRun{outcome, std::move(why), ""};
  return settleStep(seen, *ctx.secrets);
}

}  // namespace lw::pipeline
