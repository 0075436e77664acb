// `loopwright sandbox backends` (what each backend enforces here, observed)
// and `loopwright sandbox exec` (one command under a negotiated sandbox).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>

#include <boost/json.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "cli/policy_context.h"
#include "cli/sandbox_exec_egress.h"
#include "core/error_json.h"
#include "core/json_text.h"
#include "host/k8s_pod_setup.h"
#include "policy/load/egress_reader.h"
#include "policy/model/effective_policy.h"
#include "policy/model/isolation.h"
#include "policy/resolve/resolve.h"
#include "sandbox/limits/limits_json.h"
#include "sandbox/negotiate.h"
#include "sandbox/probe_report_json.h"
#include "sandbox/process/step_env.h"
#include "sandbox/registry/backend_registry.h"

namespace lw::cli {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using sandbox::Backend;

void printStatus(std::ostream& out, const std::string& what, const sandbox::SupportStatus& s) {
  out << "  " << what;
  for (std::size_t n = what.size(); n < 30; ++n) out << ' ';
  std::string st(sandbox::toString(s.support));
  out << st << std::string(st.size() < 10 ? 10 - st.size() : 1, ' ') << s.reason << "\n";
}

int runBackends(const Args&, Io& io) {
  // The host config's cluster makes k8s-pod probe it; an unreadable config leaves it unconfigured.
  auto hostConfig = loadHostConfigFrom(io.env);
  sandbox::RegistryOptions options =
      hostConfig ? host::registryOptionsFor(*hostConfig, io.env) : sandbox::RegistryOptions{};
  options.freshProbes = true;
  auto backends = sandbox::makeBackends(io.env, options);
  json::array all;
  for (auto& b : backends) {
    const sandbox::ProbeReport& r = b->probe();
    if (io.json) {
      all.push_back(sandbox::toJson(r));
      continue;
    }
    io.out << toString(r.backend) << ": " << (r.available ? "available" : "unavailable: " + r.unavailableReason)
           << (r.version.empty() ? "" : " (" + r.version + ")") << "\n";
    if (!r.available) continue;
    io.out << "  isolation                     " << describeLevel(sandbox::observedIsolation(r))
           << (r.kernelSeparation.empty() ? "" : ": " + r.kernelSeparation) << "\n";
    for (const auto& [c, s] : r.capabilities) printStatus(io.out, std::string(toString(c)), s);
    for (const auto& [m, s] : r.networkModes) printStatus(io.out, "network " + std::string(toString(m)), s);
  }
  if (io.json) printJson(io.out, json::object{{"backends", std::move(all)}});
  return kExitOk;
}

Error usage(std::string message, std::string hint = {}) {
  return makeError(ErrorCode::UsageError, std::move(message), std::move(hint));
}

fs::path absolute(const std::string& p, const fs::path& base) {
  fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal();
}

// networkMode allow-list from the flags: --egress entries and an
// --egress-file list go with it (and imply it), as sandbox.egress goes with
// it in a taskpack. Sets `mode`; the list is empty for every other mode.
Result<std::vector<EgressRule>> egressFromFlags(const Args& a, NetworkMode& mode) {
  const bool listed = !a.values("egress").empty() || a.value("egress-file");
  if (!listed && mode != NetworkMode::AllowList) return std::vector<EgressRule>{};
  if (!listed)
    return usage("--network allow-list needs an egress list",
                 "add --egress HOST[:PORT] or --egress-file FILE (docs/egress.md)");
  if (a.value("network") && mode != NetworkMode::AllowList)
    return usage("--egress and --egress-file go with --network allow-list, not " + std::string(toString(mode)));
  mode = NetworkMode::AllowList;
  return readCommandLineEgress(a.values("egress"), a.value("egress-file"));
}

// The policy of `sandbox exec`, from its flags (docs/taskpack.md, built-ins included).
Result<sandbox::NegotiationRequest> policyFromFlags(const Args& a, const Environment& env, const fs::path& cwd) {
  sandbox::NegotiationRequest req;
  EffectiveSandbox& p = req.policy;
  for (const std::string& b : a.values("backend")) {
    auto id = parseBackendId(b);
    if (!id) return usage("unknown backend '" + b + "'", "see 'loopwright sandbox backends'");
    p.preferredBackends.push_back(*id);
  }
  if (p.preferredBackends.empty()) p.preferredBackends = sandbox::defaultBackendOrder();
  if (auto n = a.value("network")) {
    auto m = parseNetworkMode(*n);
    if (!m) return usage("unknown network mode '" + *n + "'", "use none, loopback-only, allow-outbound or allow-list");
    p.networkMode = *m;
  }
  auto egress = egressFromFlags(a, p.networkMode);
  if (!egress) return egress.error();
  for (const std::string& c : a.values("require")) {
    auto cap = parseCapability(c);
    if (!cap) return usage("unknown capability '" + c + "'");
    p.requiredCapabilities.push_back(*cap);
  }
  for (const std::string& d : a.values("deny-read")) p.deniedReadPaths.push_back(absolute(d, cwd));
  if (auto home = env.get("HOME"); home && !home->empty() && (*home)[0] == '/') {
    for (std::string_view d : kBuiltinDeniedReadPaths)
      p.deniedReadPaths.push_back(fs::path(*home) / std::string(d.substr(2)));
  }
  for (const std::string& q : a.values("protect")) p.protectedPaths.push_back(q);
  for (std::string_view q : kBuiltinProtectedPaths) p.protectedPaths.emplace_back(q);
  req.explicitImage = a.value("image").has_value();
  // The admin's floor binds an ad-hoc command as it binds a taskpack step
  // (docs/host-config.md): the flags are an explicit policy, checked by resolveAdHoc.
  auto host = loadHostConfigFrom(env);
  if (!host) return host.error();
  SandboxSpec flags;
  if (!a.values("backend").empty()) flags.preferredBackends = p.preferredBackends;
  if (a.value("network") || !egress->empty()) flags.networkMode = p.networkMode;
  if (!egress->empty()) flags.egress = *egress;
  if (!a.values("require").empty()) flags.requiredCapabilities = p.requiredCapabilities;
  auto floor = resolveAdHoc(flags, *host, resolveContextFrom(env));
  if (!floor) return floor.error();
  p.minIsolation = floor->minIsolation;
  p.allowDedicatedDirectOverride = floor->allowDedicatedDirectOverride;
  p.egress = floor->egress;
  p.egressSettings = floor->egressSettings;
  return req;
}

// The step's resource limits: the defaults, lowered or raised by the flags
// (--pids 64 --memory 256MiB --file-size 16MiB …), within the taskpack's bounds.
Result<ResourceLimits> limitsFromFlags(const Args& a) {
  ResourceLimits l;
  ResourceLimitsOverride flags;
  constexpr std::pair<ResourceLimit, std::string_view> kFlags[] = {{ResourceLimit::Pids, "pids"},
                                                                   {ResourceLimit::Memory, "memory"},
                                                                   {ResourceLimit::FileSize, "file-size"},
                                                                   {ResourceLimit::OpenFiles, "open-files"},
                                                                   {ResourceLimit::CpuSeconds, "cpu-seconds"},
                                                                   {ResourceLimit::TmpSize, "tmp-size"}};
  for (auto [r, name] : kFlags) {
    const std::string flag(name);
    auto text = a.value(flag);
    if (!text) continue;
    SizeProblem problem{"is not a whole number", "write digits only, e.g. 64"};
    std::optional<std::int64_t> v;
    if (isSize(r)) {
      v = parseSize(*text, &problem);
    } else if (!text->empty() && text->find_first_not_of("0123456789") == std::string::npos && text->size() < 19) {
      v = std::stoll(*text);
    }
    if (!v) return usage("--" + flag + " '" + *text + "' " + problem.message, problem.hint);
    ResourceBound b = boundOf(r);
    if (*v < b.min || *v > b.max)
      return usage("--" + flag + " '" + *text + "' is out of range",
                   "use " + formatLimit(r, b.min) + " to " + formatLimit(r, b.max));
    fieldOf(flags, r) = v;
  }
  std::map<std::string, std::string> unused;
  applyResourceLimits(flags, "flag", l, unused);
  return l;
}

void writeReport(const std::optional<std::string>& file, const json::object& report, Io& io) {
  if (!file) return;
  std::ofstream out(*file);
  out << toJsonText(report) << "\n";
  if (!out) io.err << "loopwright: warning: could not write the report to " << *file << "\n";
}

Result<std::optional<double>> timeoutFromFlags(const Args& a) {
  auto t = a.value("timeout");
  if (!t) return std::optional<double>{};
  char* end = nullptr;
  double v = std::strtod(t->c_str(), &end);
  if (end == t->c_str() || *end != '\0' || !(v > 0) || !std::isfinite(v))
    return usage("--timeout needs a positive number of seconds, got '" + *t + "'");
  return std::optional<double>{v};
}

// The StepSpec of `sandbox exec`: the command, the workspace and the flags'
// paths, the negotiated policy's masks and network, the scrubbed environment.
sandbox::StepSpec specFromFlags(const Args& a, const sandbox::NegotiationRequest& req, const fs::path& workspace,
                                const fs::path& cwd, Io& io) {
  sandbox::StepSpec spec;
  spec.argv = a.command();
  spec.workspace = workspace;
  for (const std::string& w : a.values("writable")) {
    fs::path p = absolute(w, cwd);
    if (p == workspace)
      spec.workspaceWritable = true;
    else
      spec.writablePaths.push_back(p);
  }
  for (const std::string& q : req.policy.protectedPaths) spec.protectedPaths.push_back(absolute(q, workspace));
  for (const std::string& d : req.policy.deniedReadPaths) spec.deniedReadPaths.push_back(d);
  spec.network = req.policy.networkMode;
  spec.env = sandbox::stepEnvironment(io.env, {});
  spec.image = a.value("image");
  spec.onOutput = [&io](int stream, const char* data, std::size_t n) {
    std::ostream& o = stream == 1 ? io.out : io.err;
    o.write(data, static_cast<std::streamsize>(n));
    o.flush();
  };
  return spec;
}

// The --report of a step that ran: what loopwright observed, never a guess.
json::object exitReport(const sandbox::Negotiated& chosen, json::array refused, const sandbox::StepSpec& spec,
                        Backend& backend, const sandbox::process::RunningProcess& proc,
                        const sandbox::process::ExitInfo& info) {
  json::array enforced;
  for (Capability c : chosen.enforced) enforced.push_back(json::string(toString(c)));
  const char* outcome = !info.supervisorLost.empty() ? "supervisor-lost" : (info.timedOut ? "timed-out" : "exited");
  return {{"outcome", outcome},
          {"backend", std::string(toString(chosen.backend))},
          {"networkMode", std::string(toString(spec.network))},
          {"capabilitiesEnforced", std::move(enforced)},
          {"refused", std::move(refused)},
          {"durationMs", info.duration.count()},
          {"exitStatus", info.status()},
          {"signal", info.signal},
          {"timedOut", info.timedOut},
          {"supervisorLost", info.supervisorLost.empty() ? json::value(nullptr) : json::value(info.supervisorLost)},
          // null where the step's pid namespace ended the rest: counted
          // only by loopwright's own subreaper.
          {"descendantsKilled", info.descendantsKilled ? json::value(*info.descendantsKilled) : nullptr},
          {"anyDescendantKilled", info.descendantsKilled ? json::value(*info.descendantsKilled > 0) : nullptr},
          {"limits", sandbox::limits::toJson(backend.limitsEnforcement(spec.limits))},
          {"stdoutBytes", proc.stdoutData().totalBytes},
          {"stderrBytes", proc.stderrData().totalBytes}};
}

// The proxy's records for --report; each denial said on stderr too, as
// the run summary says it.
json::array egressReport(json::array records, Io& io) {
  for (const auto& r : records)
    if (!r.at("allowed").as_bool())
      io.err << "loopwright: egress denied " << std::string_view(r.at("host").as_string()) << ":"
             << r.at("port").as_int64() << ": " << std::string_view(r.at("reason").as_string()) << "\n";
  return records;
}

Result<fs::path> workspaceFromFlags(const Args& a, const fs::path& cwd) {
  std::error_code ec;
  const std::string given = a.value("workspace").value_or(cwd.string());
  fs::path workspace = fs::canonical(given, ec);
  if (ec || !fs::is_directory(workspace)) return usage("workspace " + given + " is not an existing directory");
  return workspace;
}

Backend* findBackend(const std::vector<std::unique_ptr<Backend>>& backends, BackendId id) {
  for (const auto& b : backends)
    if (b->id() == id) return b.get();
  return nullptr;
}

json::array refusalsJson(const std::vector<sandbox::Refusal>& refusals) {
  json::array refused;
  for (const auto& r : refusals)
    refused.push_back({{"backend", std::string(toString(r.backend))}, {"reason", r.reason}});
  return refused;
}

// Waits for the step, killed at `timeout` seconds after `started` if given.
sandbox::process::ExitInfo waitForStep(sandbox::process::RunningProcess& proc,
                                       std::chrono::steady_clock::time_point started,
                                       const std::optional<double>& timeout) {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (timeout)
    deadline = started +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(*timeout));
  return proc.wait(deadline);
}

int runExec(const Args& a, Io& io) {
  const fs::path cwd = fs::current_path();
  auto req = policyFromFlags(a, io.env, cwd);
  if (!req) return reportError(io, req.error());
  auto timeout = timeoutFromFlags(a);
  if (!timeout) return reportError(io, timeout.error());
  auto limits = limitsFromFlags(a);
  if (!limits) return reportError(io, limits.error());
  auto workspace = workspaceFromFlags(a, cwd);
  if (!workspace) return reportError(io, workspace.error());

  auto backends = sandbox::makeBackends(io.env);
  auto chosen = sandbox::negotiate(*req, [&](BackendId id) -> const sandbox::ProbeReport* {
    Backend* b = findBackend(backends, id);
    return b ? &b->probe() : nullptr;
  });
  if (!chosen) {
    writeReport(a.value("report"), {{"outcome", "negotiation-failed"}, {"error", toJson(chosen.error())}}, io);
    return reportError(io, chosen.error());
  }

  sandbox::StepSpec spec = specFromFlags(a, *req, *workspace, cwd, io);
  spec.limits = *limits;
  Backend* backend = findBackend(backends, chosen->backend);
  std::unique_ptr<ExecEgress> egress;
  if (spec.network == NetworkMode::AllowList) {
    auto proxy = ExecEgress::start(req->policy, *backend, spec);
    if (!proxy) return reportError(io, proxy.error());
    egress = std::move(*proxy);
  }
  auto started = std::chrono::steady_clock::now();
  auto proc = backend->launch(spec);
  if (!proc) {
    writeReport(a.value("report"),
                {{"outcome", "launch-failed"},
                 {"backend", std::string(toString(chosen->backend))},
                 {"error", toJson(proc.error())}},
                io);
    return reportError(io, proc.error());
  }
  sandbox::process::ExitInfo info = waitForStep(**proc, started, *timeout);
  // A supervisor the step killed or stopped is said, never a plain exit.
  if (!info.supervisorLost.empty()) io.err << "loopwright: " << info.supervisorLost << "\n";
  json::object report = exitReport(*chosen, refusalsJson(chosen->refused), spec, *backend, **proc, info);
  if (egress) report["egress"] = egressReport(egress->records(), io);
  writeReport(a.value("report"), report, io);
  if (io.json) printJson(io.out, report);
  return info.status();
}

}  // namespace

Command sandboxBackendsCommand() {
  Command c;
  c.name = "sandbox backends";
  c.summary = "what each sandbox backend enforces on this host, observed by a probe";
  c.usage = "[--json]";
  c.description =
      "Probes every backend now (no cache) and prints, per capability and network mode,\n"
      "enforced, partial or absent with the reason. Negotiation accepts only enforced.";
  c.run = runBackends;
  return c;
}

Command sandboxExecCommand() {
  Command c;
  c.name = "sandbox exec";
  c.summary = "run one command under a negotiated sandbox";
  c.usage = "[options] -- CMD [ARGS...]";
  c.description =
      "Negotiates a backend (the --backend order; default macos-seatbelt, linux-bwrap,\n"
      "linux-landlock, linux-gvisor), runs CMD in it with the workspace read-only unless listed with\n"
      "--writable, and exits with CMD's status: 3 when no backend qualifies, 124 on timeout.\n"
      "CMD's stdout and stderr are passed through. With --egress (network allow-list) CMD reaches\n"
      "only those hosts, through a proxy loopwright runs; each denial is said on stderr.";
  c.options = {
      {"backend", "B", "a backend to try, in order", true},
      {"network", "MODE", "none (default), loopback-only, allow-outbound or allow-list"},
      {"egress", "HOST[:PORT]", "allow-list: a host the command may reach through loopwright's proxy", true},
      {"egress-file", "FILE", "allow-list: a YAML list of hosts as under sandbox.egress (docs/egress.md)"},
      {"require", "CAP", "a capability the backend must enforce", true},
      {"deny-read", "PATH", "a path the command must not read (host credentials always are)", true},
      {"workspace", "DIR", "the workspace (default: the current directory)"},
      {"writable", "PATH", "a path the command may write (the workspace itself too)", true},
      {"protect", "PATH", "a workspace path that stays read-only (.github etc. always do)", true},
      {"image", "REF", "a container image pinned by digest (docker)"},
      {"timeout", "SECONDS", "kill the whole tree after this long (exit 124)"},
      {"pids", "N", "at most N processes and threads (default 512)"},
      {"memory", "SIZE", "memory of the step, e.g. 256MiB (default 4GiB)"},
      {"file-size", "SIZE", "the largest file the step may write (default 2GiB)"},
      {"open-files", "N", "open descriptors per process (default 4096)"},
      {"cpu-seconds", "N", "CPU seconds per process (default: unlimited)"},
      {"tmp-size", "SIZE", "size of the private /tmp where the backend gives one (default 1GiB)"},
      {"report", "FILE", "write a JSON report: backend, capabilities, limits, duration, kills"},
  };
  c.takesCommand = true;
  c.run = runExec;
  return c;
}

}  // namespace lw::cli
