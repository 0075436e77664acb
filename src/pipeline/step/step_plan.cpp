#include "pipeline/step/step_plan.h"

#include <algorithm>
#include <map>

#include "core/executables.h"
#include "core/step_label.h"
#include "sandbox/egress_route.h"
#include "sandbox/process/step_env.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

// The step's view of the repository and its out dir, by its role.
void planFilesystem(const PlannedStep& planned, const StepWorkspace& workspace, const HostLookups& host,
                    sandbox::StepSpec& spec) {
  const EffectiveStep& policy = planned.policy;
  const Step& step = *planned.step;
  const fs::path& root = workspace.workTree;
  spec.workspace = root;
  spec.workdir = root;
  spec.workspaceWritable = policy.role == Role::Author && step.writable.empty();
  if (policy.role == Role::Author) spec.writablePaths = writableRoots(root, step.writable, host.existsNotSymlink);
  for (const auto& p : policy.sandbox.protectedPaths) spec.protectedPaths.push_back(root / p);
  for (const auto& p : policy.sandbox.deniedReadPaths) spec.deniedReadPaths.emplace_back(p);
}

// What the step sees of the host besides the repository: the event and
// loopwright's executables read-only where host files are visible; else
// nothing, and it runs the host admin's pinned image.
void planHostView(const EffectiveStep& policy, const sandbox::BackendTraits& traits, const RunContext& ctx,
                  const StepCommand& command, sandbox::StepSpec& spec) {
  if (traits.hostFilesVisible) {
    spec.readOnlyPaths = {ctx.eventFile, ctx.selfExe};
    spec.readOnlyPaths.insert(spec.readOnlyPaths.end(), command.readOnlyPaths.begin(), command.readOnlyPaths.end());
  }
  if (traits.needsImage) spec.image = policy.sandbox.runtimeProfile ? policy.sandbox.runtimeProfile->image : "";
}

// The variables loopwright sets for the step, on top of the host's
// allow-listed ones (sandbox/process/step_env.h).
std::map<std::string, std::string> stepVariables(const StepPlan& plan, const sandbox::BackendTraits& traits,
                                                 const EffectiveStep& policy, const RunContext& ctx) {
  const std::string out = plan.layout.outDir.string();
  std::map<std::string, std::string> vars = {
      {"LOOPWRIGHT_OUT", out},
      {"LOOPWRIGHT_EVENT", plan.eventFile.string()},
      {"LOOPWRIGHT_BRIDGE", plan.bridge == BridgeKind::SocketPath ? plan.bridgeSocket : "fd:3"},
      {"LOOPWRIGHT_STEP", stepLabel(policy.stage, policy.step)},
      {"LOOPWRIGHT_RUN_ID", ctx.runId},
      {"HOME", out}};
  if (traits.hostFilesVisible) vars["LOOPWRIGHT_BIN"] = ctx.selfExe.string();
  if (!plan.egressSocket.empty()) vars.merge(sandbox::egressProxyVariables());
  return vars;
}

// allow-list: the step's proxy listens in its step directory; the step
// reaches it through loopwright's step init, installed beside loopwright,
// or its backend's own route (docs/egress.md).
Status planEgress(const StepLayout& layout, const sandbox::BackendTraits& traits, std::string_view backendName,
                  const RunContext& ctx, const HostLookups& host, StepPlan& plan) {
  const fs::path init = ctx.selfExe.parent_path() / kContainerInitExecutable;
  plan.egressSocket = layout.stepDir / "egress" / "proxy.sock";
  return sandbox::routeToEgressProxy(traits, backendName, init, host.isRegularFile(init), plan.egressSocket, plan.spec);
}

}  // namespace

StepLayout stepLayout(const fs::path& outRoot, const EffectiveStep& policy) {
  StepLayout l;
  l.stepDir = outRoot / "steps" / policy.stage / policy.step;
  l.outDir = l.stepDir / "out";
  l.stdoutLog = l.stepDir / "stdout.log";
  l.stderrLog = l.stepDir / "stderr.log";
  l.callsLog = l.stepDir / "bridge-calls.log";
  return l;
}

StepWorkspace checkoutWorkspace(const RunContext& ctx) { return {ctx.repo, {}}; }

HostLookups hostLookups() {
  HostLookups h;
  h.isRegularFile = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
  };
  h.existsNotSymlink = [](const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec) && !fs::is_symlink(p, ec);
  };
  return h;
}

Result<StepPlan> planStep(const PlannedStep& planned, const sandbox::BackendTraits& traits,
                          std::string_view backendName, const RunContext& ctx, const HostLookups& host,
                          const StepWorkspace* workspace) {
  const EffectiveStep& policy = planned.policy;
  auto command = stepCommand(*planned.step, ctx.selfExe, traits, backendName, host.isRegularFile);
  if (!command) return command.error();
  StepPlan plan;
  plan.layout = stepLayout(ctx.outRoot, policy);
  // A step that cannot be handed a descriptor reaches its bridge on a socket
  // in its out dir (made private to this user before the bridge listens).
  if (traits.bridge == sandbox::BackendTraits::BridgeTransport::SocketPath) {
    plan.bridge = BridgeKind::SocketPath;
    plan.bridgeSocket = (plan.layout.outDir / "bridge.sock").string();
  }
  plan.copyEvent = !traits.hostFilesVisible;
  plan.eventFile = plan.copyEvent ? plan.layout.outDir / "event.json" : ctx.eventFile;
  sandbox::StepSpec& spec = plan.spec;
  spec.argv = command->argv;
  spec.outDir = plan.layout.outDir;
  spec.network = policy.sandbox.networkMode;
  spec.maxOutputBytes = static_cast<std::size_t>(policy.limits.maxOutputBytes);
  spec.limits = policy.resources;
  const StepWorkspace where = workspace ? *workspace : checkoutWorkspace(ctx);
  planFilesystem(planned, where, host, spec);
  planHostView(policy, traits, ctx, *command, spec);
  if (traits.hostFilesVisible && !where.gitCommonDir.empty()) spec.readOnlyPaths.push_back(where.gitCommonDir);
  if (policy.sandbox.networkMode == NetworkMode::AllowList)
    if (auto egress = planEgress(plan.layout, traits, backendName, ctx, host, plan); !egress) return egress.error();
  spec.env = sandbox::stepEnvironment(*ctx.env, stepVariables(plan, traits, policy, ctx));
  return plan;
}

verify::CheckPolicy checkPolicyFor(const PlannedStep& planned, const std::string& runId) {
  const EffectiveStep& policy = planned.policy;
  const Step& step = *planned.step;
  verify::CheckPolicy p;
  p.role = policy.role;
  p.writableGlobs = step.writable.empty() ? std::vector<std::string>{"**"} : step.writable;
  p.protectedGlobs = policy.sandbox.protectedPaths;
  p.runId = runId;
  p.stepName = policy.stage + "-" + policy.step;
  p.restore = true;
  return p;
}

std::vector<fs::path> writableRoots(const fs::path& repo, const std::vector<std::string>& globs,
                                    const std::function<bool(const fs::path&)>& existsNotSymlink) {
  std::vector<fs::path> roots;
  for (const std::string& g : globs) {
    std::string prefix = g.substr(0, g.find_first_of("*?["));
    prefix = prefix.substr(0, prefix.rfind('/') == std::string::npos ? 0 : prefix.rfind('/'));
    if (g.find_first_of("*?[") == std::string::npos) prefix = g;
    fs::path p = (repo / prefix).lexically_normal();
    if (!existsNotSymlink(p)) continue;
    if (std::find(roots.begin(), roots.end(), p) == roots.end()) roots.push_back(p);
  }
  return roots;
}

}  // namespace lw::pipeline
