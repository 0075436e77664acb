// Median start-to-exit of /bin/true: bare, raw bwrap with the flags
// loopwright uses (planned by the same planner, same seccomp filter on fd 4),
// raw Landlock (raw_landlock.cpp: the same rules and filter applied by a
// launcher that does nothing else — the floor of linux-landlock, as raw
// bwrap is the floor of linux-bwrap),
// raw runsc of linux-gvisor's bundle — made once (lighter than a step), and
// a step's whole work: its scratch written and removed and runsc in the step
// cgroups each time (the floor of linux-gvisor) —
// and `loopwright sandbox exec --backend B` for every backend that runs here
// (one step, the process ended: every removal joined), and linux-gvisor as a
// step of a longer run sees it, in this process (inprocess_gvisor.h),
// interleaved round by round, each round in a shuffled order, so that load
// and the teardown work a variant leaves behind hit all alike; printed as ratios,
// with the median CPU time (user + system of the whole process tree) beside:
// on a small shared machine it varies less than the clock.
// Usage: bench_sandbox_start [RUNS] [--check] [--before LOOPWRIGHT]
// (--check: exit 1 when linux-bwrap costs more than 1.2x raw bwrap;
// --before: an earlier build measured beside this one, rows "(before)").
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/bench_support.h"
#include "policy/model/effective_policy.h"
#include "sandbox/landlock/landlock_backend.h"
#include "sandbox/process/step_env.h"
#include "sandbox_start/inprocess_gvisor.h"
#include "sandbox_start/raw_cgroups.h"
#include "sandbox_start/raw_runsc.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Variant {
  std::string name;
  std::vector<std::string> argv;
  lw::bench::ChildFds fds;  // the seccomp filter (fd 4) and /etc copies of raw bwrap
  std::vector<double> ms, cpuMs;
  bool failed = false;
  std::vector<std::string> extraEnv;  // on top of the run's environment
  lw::bench::RawCgroups cgroups;      // made before and removed after each run, timed with it
  // A gVisor step's scratch, written before and removed after each run (outside the cgroups), timed with it.
  std::optional<lw::bench::RunscScratch> freshScratch;
  // A step run in this process (inprocess_gvisor.h) instead of argv; no CPU time.
  std::function<int(double*)> inProcess;
};

int runInEnv(const Variant& v, const lw::bench::ChildFds& fds, const std::vector<std::string>& env, double* ms,
             double* cpuMs) {
  if (v.extraEnv.empty()) return lw::bench::runQuiet(v.argv, env, fds, ms, cpuMs);
  std::vector<std::string> all = env;
  all.insert(all.end(), v.extraEnv.begin(), v.extraEnv.end());
  return lw::bench::runQuiet(v.argv, all, fds, ms, cpuMs);
}

// The same timed fork/exec for every variant; a variant with cgroups or a
// fresh gVisor scratch has their making and removal timed with it, in
// linux-gvisor's order: scratch, cgroups, run, cgroups, scratch.
int runOnce(const Variant& v, const std::vector<std::string>& env, double* ms, double* cpuMs = nullptr) {
  if (v.inProcess) return v.inProcess(ms);
  if (v.cgroups.dirs.empty() && !v.freshScratch) return runInEnv(v, v.fds, env, ms, cpuMs);
  const auto start = Clock::now();
  if (v.freshScratch && !lw::bench::writeRunscScratch(*v.freshScratch)) return 125;
  lw::bench::ChildFds fds = v.fds;
  int status = 125;
  if (lw::bench::makeRawCgroups(v.cgroups, fds.joinFds)) {
    status = runInEnv(v, fds, env, ms, cpuMs);
    lw::bench::removeRawCgroups(v.cgroups, fds.joinFds);
  }
  if (v.freshScratch) lw::bench::removeRunscScratch(*v.freshScratch);
  *ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return status;
}

// The earlier build's own probe cache: a cache entry's key names the
// version, so two versions sharing one cache would each probe again on
// every run, and the bench would measure the probes.
std::string beforeCacheHome() {
  const std::string dir = "/tmp/lw-bench-before-cache-" + std::to_string(::getuid());
  ::mkdir(dir.c_str(), 0700);
  return "XDG_CACHE_HOME=" + dir;
}

using lw::bench::median;

constexpr const char* kRunscFloor = "raw runsc, a step's work (floor)";
constexpr const char* kGvisorStep = "linux-gvisor step in a run, to result";
constexpr const char* kGvisorStepJoined = "linux-gvisor step, removal joined";

// raw_landlock's command line for `spec`: the rules and namespaces
// loopwright's planner gives it on this host, and its seccomp program as a
// memfd for fd 4. Empty with a reason when the plan cannot be measured so.
// `withoutView`: the plan as it was before the private view (issue 14): no
// pid or mount namespace, metadata left to the host — the "before" floor.
Variant planRawLandlock(const lw::sandbox::StepSpec& spec, bool withoutView, std::string& whyNot) {
  namespace ll = lw::sandbox::landlock;
  ll::LandlockBackend backend(ll::landlockConfigFor(lw::Environment::fromProcess()));
  auto plan = backend.planFor(spec);
  if (!plan) {
    whyNot = plan.error().message;
    return {};
  }
  if (withoutView) {
    plan->pidNamespace = plan->mountNamespace = false;
    plan->writableTrees.clear();
    plan->userNamespace = plan->networkNamespace || geteuid() != 0;
    plan->seccomp.denyMetadataChanges = false;
  }
  auto filter = lw::sandbox::seccomp::compile(lw::sandbox::seccomp::buildPolicy(plan->seccomp));
  auto memfd = filter ? filter->toSealedMemfd() : lw::Result<int>(filter.error());
  if (!memfd) {
    whyNot = memfd.error().message;
    return {};
  }
  Variant v{withoutView ? "raw landlock, before (no view)" : "raw landlock (same rules)",
            {RAW_LANDLOCK_BIN},
            {*memfd, {}, {}},
            {},
            {},
            false,
            {},
            {},
            {},
            {}};
  for (std::uint64_t n : {plan->handled.handledAccessFs, plan->handled.handledAccessNet, plan->handled.scoped})
    v.argv.push_back(std::to_string(n));
  for (bool ns : {plan->userNamespace, plan->networkNamespace, plan->pidNamespace, plan->mountNamespace})
    v.argv.push_back(ns ? "1" : "0");
  v.argv.push_back(plan->workdir.empty() ? "/" : plan->workdir);
  v.argv.push_back(std::to_string(plan->writableTrees.size()));
  v.argv.insert(v.argv.end(), plan->writableTrees.begin(), plan->writableTrees.end());
  for (const auto& rule : plan->paths) {
    v.argv.push_back(std::to_string(rule.access));
    v.argv.push_back(rule.path);
  }
  v.argv.insert(v.argv.end(), {"--", "/bin/true"});
  return v;
}

// Every variant of one run: the floors first, then loopwright per backend
// (and the `before` build beside it).
std::vector<Variant> buildVariants(const lw::sandbox::StepSpec& spec, const lw::bench::RawBwrap& raw,
                                   const std::optional<lw::bench::RawRunsc>& runsc,
                                   const std::optional<lw::bench::RawRunsc>& freshRunsc, const std::string& before,
                                   lw::bench::InProcessGvisor* gvisorStep, std::string& noRawLandlock) {
  std::vector<Variant> variants;
  variants.push_back({"bare exec", {"/bin/true"}, {}, {}, {}, false, {}, {}, {}, {}});
  variants.push_back({"raw bwrap (same flags)", raw.argv, raw.fds, {}, {}, false, {}, {}, {}, {}});
  // The kernel's part of the per-step cgroups, only where there are some:
  // around a bare exec, and around bwrap, whose mounts and namespaces are
  // then charged to the step's memory cgroup.
  if (auto cgroups = lw::bench::planRawCgroups(); !cgroups.dirs.empty()) {
    variants.push_back({"bare exec in step cgroups", {"/bin/true"}, {}, {}, {}, false, {}, cgroups, {}, {}});
    variants.push_back({"raw bwrap in step cgroups", raw.argv, raw.fds, {}, {}, false, {}, cgroups, {}, {}});
  }
  for (bool withoutView : {true, false}) {
    Variant rawLandlock = planRawLandlock(spec, withoutView, noRawLandlock);
    if (!rawLandlock.argv.empty()) variants.push_back(std::move(rawLandlock));
  }
  if (runsc) {
    // Lighter than a step: one bundle made once (runsc made its root's mount
    // points on the first run), no cgroups.
    variants.push_back({"raw runsc (same bundle)", runsc->argv, {}, {}, {}, false, {}, {}, {}, {}});
    if (auto cgroups = lw::bench::planRawCgroups(); !cgroups.dirs.empty())
      variants.push_back({"raw runsc in step cgroups", runsc->argv, {}, {}, {}, false, {}, cgroups, {}, {}});
  }
  // linux-gvisor's floor, the work of one step and nothing else: its
  // scratch written and removed, runsc inside the step cgroups where it
  // makes them.
  if (freshRunsc)
    variants.push_back(
        {kRunscFloor, freshRunsc->argv, {}, {}, {}, false, {}, lw::bench::planRawCgroups(), freshRunsc->scratch, {}});
  const char* image = std::getenv("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  for (const char* b : {"linux-bwrap", "linux-landlock", "linux-gvisor", "docker", "direct-dedicated"}) {
    for (const std::string& bin : {std::string(LOOPWRIGHT_BIN), before}) {
      if (bin.empty()) continue;
      std::vector<std::string> argv = {bin, "sandbox", "exec", "--backend", b, "--workspace", spec.workspace.string()};
      if (std::string_view(b) == "docker" && image != nullptr) argv.insert(argv.end(), {"--image", image});
      // It contains nothing: the machine's own network is all it offers.
      if (std::string_view(b) == "direct-dedicated") argv.insert(argv.end(), {"--network", "allow-outbound"});
      argv.insert(argv.end(), {"--", "/bin/true"});
      std::string name = std::string("loopwright ") + b + (bin == before ? " (before)" : "");
      variants.push_back({name, std::move(argv), {}, {}, {}, false, {}, {}, {}, {}});
      if (bin == before) variants.back().extraEnv = {beforeCacheHome()};
    }
  }
  if (gvisorStep) {
    for (bool joined : {false, true}) {
      Variant v{joined ? kGvisorStepJoined : kGvisorStep, {}, {}, {}, {}, false, {}, {}, {}, {}};
      v.inProcess = [gvisorStep, joined](double* ms) { return gvisorStep->step(joined, ms); };
      variants.push_back(std::move(v));
    }
  }
  return variants;
}

// One warm-up round (fills the probe cache, pages in the binaries, drops
// what cannot run here), then `runs` rounds interleaved.
void measure(std::vector<Variant>& variants, int runs, const std::vector<std::string>& env) {
  for (Variant& v : variants) {
    double ms = 0;
    v.failed = runOnce(v, env, &ms) != 0;
  }
  // A variant leaves the kernel work of its teardown (network namespaces,
  // cgroups) to whatever runs next: a fixed order would charge it to the
  // same neighbour every time.
  std::vector<Variant*> order;
  for (Variant& v : variants) order.push_back(&v);
  std::mt19937 shuffle(42);
  for (int r = 0; r < runs; ++r) {
    std::shuffle(order.begin(), order.end(), shuffle);
    for (Variant* vp : order) {
      Variant& v = *vp;
      if (v.failed) continue;
      double ms = 0, cpu = 0;
      if (runOnce(v, env, &ms, &cpu) == 0) {
        v.ms.push_back(ms);
        v.cpuMs.push_back(cpu);
      }
    }
  }
}

double fastestOf(const std::vector<Variant>& variants, const std::string& name) {
  for (const Variant& v : variants)
    if (v.name == name && !v.ms.empty()) return *std::min_element(v.ms.begin(), v.ms.end());
  return 0;
}

double medianOf(const std::vector<Variant>& variants, const std::string& name) {
  for (const Variant& v : variants)
    if (v.name == name && !v.ms.empty()) return median(v.ms);
  return 0;
}

// The table, and the ratios the issues set targets for. Returns
// loopwright linux-bwrap / raw bwrap.
double report(const std::vector<Variant>& variants, int runs) {
  double bare = median(variants[0].ms), rawMs = medianOf(variants, "raw bwrap (same flags)");
  std::printf("sandbox_start: median of %d runs, start to exit of /bin/true\n", runs);
  std::printf("  %-34s %9s %12s %12s %12s %10s\n", "variant", "median", "fastest", "vs bare", "vs raw bwrap", "cpu");
  for (const Variant& v : variants) {
    if (v.failed || v.ms.empty()) {
      std::printf("  %-34s %9s\n", v.name.c_str(), "(cannot run here)");
      continue;
    }
    double m = median(v.ms);
    std::printf("  %-34s %7.2f ms %9.2f ms %11.2fx %11.2fx %7.2f ms\n", v.name.c_str(), m,
                *std::min_element(v.ms.begin(), v.ms.end()), m / bare, m / rawMs, median(v.cpuMs));
  }
  auto ratio = [&](const char* what, const std::string& a, const std::string& b) {
    double x = medianOf(variants, a), y = medianOf(variants, b);
    if (x > 0 && y > 0)
      std::printf("  %s: %.2fx (fastest: %.2fx)\n", what, x / y, fastestOf(variants, a) / fastestOf(variants, b));
  };
  ratio("loopwright linux-landlock vs raw landlock", "loopwright linux-landlock", "raw landlock (same rules)");
  ratio("loopwright linux-gvisor vs raw runsc doing a step's work (target <= 1.1x)", "loopwright linux-gvisor",
        kRunscFloor);
  ratio("loopwright linux-gvisor vs raw runsc (same bundle, no cgroups: lighter)", "loopwright linux-gvisor",
        "raw runsc (same bundle)");
  ratio("loopwright linux-gvisor vs raw runsc in step cgroups (same bundle)", "loopwright linux-gvisor",
        "raw runsc in step cgroups");
  ratio("linux-gvisor step in a run (to its result) vs raw runsc (same bundle)", kGvisorStep,
        "raw runsc (same bundle)");
  ratio("linux-gvisor step in a run (to its result) vs raw runsc doing a step's work", kGvisorStep, kRunscFloor);
  ratio("linux-gvisor step in a run, to its result vs with its removal joined", kGvisorStep, kGvisorStepJoined);
  ratio("loopwright linux-gvisor vs loopwright linux-bwrap", "loopwright linux-gvisor", "loopwright linux-bwrap");
  ratio("hardening, raw landlock after vs before", "raw landlock (same rules)", "raw landlock, before (no view)");
  if (double inCgroups = medianOf(variants, "bare exec in step cgroups"); inCgroups > 0)
    std::printf("  step cgroups, the kernel's part (floor): +%.2f ms a start, +%.2f ms around bwrap\n",
                inCgroups - bare, medianOf(variants, "raw bwrap in step cgroups") - rawMs);
  if (double floor = medianOf(variants, kRunscFloor), kept = medianOf(variants, "raw runsc in step cgroups");
      floor > 0 && kept > 0)
    std::printf("  a gVisor step's own scratch (runsc making its root's mount points, then its removal): +%.2f ms\n",
                floor - kept);
  for (const char* b : {"linux-bwrap", "linux-landlock", "linux-gvisor", "docker", "direct-dedicated"}) {
    std::string now = std::string("loopwright ") + b;
    ratio(("hardening, " + now + " vs before").c_str(), now, now + " (before)");
  }
  double bwrap = medianOf(variants, "loopwright linux-bwrap");
  return bwrap > 0 && rawMs > 0 ? bwrap / rawMs : 0;
}

// The peak summed resident memory of runsc's processes (front, Sentry,
// gofer) while a step sleeps under `loopwright sandbox exec --backend
// linux-gvisor`: what an idle gVisor step costs the host.
void reportIdleGvisorMemory(const fs::path& ws) {
  pid_t child = ::fork();
  if (child == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    const std::string w = ws.string();
    ::execl(LOOPWRIGHT_BIN, LOOPWRIGHT_BIN, "sandbox", "exec", "--backend", "linux-gvisor", "--workspace", w.c_str(),
            "--", "/bin/sleep", "3", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  long peak = 0;
  for (int i = 0; i < 40; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    peak = std::max(peak, lw::bench::runscResidentKiB());
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  if (peak > 0)
    std::printf("  idle linux-gvisor step (sleep 3): peak resident memory of runsc, Sentry and gofer %.1f MiB\n",
                static_cast<double>(peak) / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 30;
  bool check = false;
  std::string before;  // an earlier loopwright binary, measured in the same run
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--check")
      check = true;
    else if (a == "--before" && i + 1 < argc)
      before = argv[++i];
    else
      runs = std::max(1, std::atoi(argv[i]));
  }
  char tmpl[] = "/tmp/lw-bench-XXXXXX";
  fs::path ws = ::mkdtemp(tmpl);
  const char* homeVar = std::getenv("HOME");
  std::string home = homeVar ? homeVar : "/root";
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home};
  // Docker runs when an engine and a local image are given, as the tests
  // give them: eval "$(scripts/docker-test-env.sh env)".
  if (const char* dockerHost = std::getenv("DOCKER_HOST")) env.push_back(std::string("DOCKER_HOST=") + dockerHost);

  // The StepSpec `sandbox exec --workspace ws -- /bin/true` builds.
  lw::sandbox::StepSpec spec;
  spec.argv = {"/bin/true"};
  spec.workspace = ws;
  for (std::string_view p : lw::kBuiltinProtectedPaths) spec.protectedPaths.push_back(ws / std::string(p));
  for (std::string_view d : lw::kBuiltinDeniedReadPaths)
    spec.deniedReadPaths.push_back(fs::path(home) / std::string(d.substr(2)));
  auto raw = lw::bench::planRawBwrap(spec);
  if (!raw) {
    std::fprintf(stderr, "bench_sandbox_start: bwrap is missing or the raw plan failed\n");
    return 2;
  }
  std::string noRawLandlock;
  char runscTmpl[] = "/tmp/lw-bench-runsc-XXXXXX";
  const fs::path runscDir = ::mkdtemp(runscTmpl);
  fs::create_directories(runscDir / "out");
  auto gvisorStep = lw::bench::InProcessGvisor::make(spec, runscDir / "out");
  std::vector<Variant> variants =
      buildVariants(spec, *raw, lw::bench::planRawRunsc(spec, runscDir / "kept", false),
                    lw::bench::planRawRunsc(spec, runscDir / "fresh", true), before, gvisorStep.get(), noRawLandlock);
  measure(variants, runs, env);
  double bwrapRatio = report(variants, runs);
  reportIdleGvisorMemory(ws);
  std::error_code runscEc;
  fs::remove_all(runscDir, runscEc);
  if (!noRawLandlock.empty()) std::printf("  raw landlock not measured: %s\n", noRawLandlock.c_str());
  std::error_code ec;
  fs::remove_all(ws, ec);
  if (check && !(bwrapRatio > 0 && bwrapRatio <= 1.2)) {
    std::printf("FAIL: loopwright linux-bwrap costs %.2fx raw bwrap (limit 1.2x)\n", bwrapRatio);
    return 1;
  }
  return 0;
}
