// Median start-to-exit of /bin/true: bare, raw bwrap with the flags
// loopwright uses (planned by the same planner, same seccomp filter on fd 4),
// raw Landlock (raw_landlock.cpp: the same rules and filter applied by a
// launcher that does nothing else — the floor of linux-landlock, as raw
// bwrap is the floor of linux-bwrap),
// and `loopwright sandbox exec --backend B` for every backend that runs here,
// interleaved round by round so that load hits all alike; printed as ratios,
// with the median CPU time (user + system of the whole process tree) beside:
// on a small shared machine it varies less than the clock.
// Usage: bench_sandbox_start [RUNS] [--check]  (--check: exit 1 when
// linux-bwrap costs more than 1.2x raw bwrap).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "policy/effective_policy.h"
#include "common/bench_support.h"
#include "sandbox/landlock/landlock_backend.h"
#include "sandbox/step_env.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Variant {
  std::string name;
  std::vector<std::string> argv;
  int seccompFd = -1;  // moved to fd 4 in the child
  std::vector<double> ms, cpuMs;
  bool failed = false;
};

// The same timed fork/exec for every variant.
int runOnce(const Variant& v, const std::vector<std::string>& env, double* ms, double* cpuMs = nullptr) {
  return lw::bench::runQuiet(v.argv, env, v.seccompFd, ms, cpuMs);
}

using lw::bench::median;

// raw_landlock's command line for `spec`: the rules and namespaces
// loopwright's planner gives it on this host, and its seccomp program as a
// memfd for fd 4. Empty with a reason when the plan cannot be measured so.
Variant planRawLandlock(const lw::sandbox::StepSpec& spec, std::string& whyNot) {
  namespace ll = lw::sandbox::landlock;
  ll::LandlockBackend backend(ll::landlockConfigFor(lw::Environment::fromProcess()));
  auto plan = backend.planFor(spec);
  if (!plan) {
    whyNot = plan.error().message;
    return {};
  }
  if (plan->pidNamespace) {
    whyNot = "the plan needs a pid namespace (Landlock ABI < 6), which raw_landlock does not set up";
    return {};
  }
  auto filter = lw::sandbox::seccomp::compile(lw::sandbox::seccomp::buildPolicy(plan->seccomp));
  auto memfd = filter ? filter->toSealedMemfd() : lw::Result<int>(filter.error());
  if (!memfd) {
    whyNot = memfd.error().message;
    return {};
  }
  Variant v{"raw landlock (same rules)", {RAW_LANDLOCK_BIN}, *memfd, {}, {}, false};
  for (std::uint64_t n : {plan->handled.handledAccessFs, plan->handled.handledAccessNet, plan->handled.scoped})
    v.argv.push_back(std::to_string(n));
  v.argv.push_back(plan->userNamespace ? "1" : "0");
  v.argv.push_back(plan->networkNamespace ? "1" : "0");
  for (const auto& rule : plan->paths) {
    v.argv.push_back(std::to_string(rule.access));
    v.argv.push_back(rule.path);
  }
  v.argv.insert(v.argv.end(), {"--", "/bin/true"});
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 30;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--check") check = true;
    else runs = std::max(1, std::atoi(argv[i]));
  }
  char tmpl[] = "/tmp/lw-bench-XXXXXX";
  fs::path ws = ::mkdtemp(tmpl);
  const char* homeVar = std::getenv("HOME");
  std::string home = homeVar ? homeVar : "/root";
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home};

  // The StepSpec `sandbox exec --workspace ws -- /bin/true` builds.
  lw::sandbox::StepSpec spec;
  spec.argv = {"/bin/true"};
  spec.workspace = ws;
  for (std::string_view p : lw::kBuiltinProtectedPaths) spec.protectedPaths.push_back(ws / std::string(p));
  for (std::string_view d : lw::kBuiltinDeniedReadPaths) spec.deniedReadPaths.push_back(fs::path(home) / std::string(d.substr(2)));
  auto raw = lw::bench::planRawBwrap(spec);
  if (!raw) {
    std::fprintf(stderr, "bench_sandbox_start: bwrap is missing or the raw plan failed\n");
    return 2;
  }

  std::vector<Variant> variants;
  variants.push_back({"bare exec", {"/bin/true"}, -1, {}, {}, false});
  variants.push_back({"raw bwrap (same flags)", raw->argv, raw->seccompFd, {}, {}, false});
  std::string noRawLandlock;
  Variant rawLandlock = planRawLandlock(spec, noRawLandlock);
  if (!rawLandlock.argv.empty()) variants.push_back(std::move(rawLandlock));
  // Docker runs when an engine and a local image are given, as the tests
  // give them: eval "$(scripts/docker-test-env.sh env)".
  const char* dockerHost = std::getenv("DOCKER_HOST");
  const char* image = std::getenv("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  if (dockerHost != nullptr) env.push_back(std::string("DOCKER_HOST=") + dockerHost);
  for (const char* b : {"linux-bwrap", "linux-landlock", "docker", "direct-dedicated"}) {
    std::vector<std::string> argv = {LOOPWRIGHT_BIN, "sandbox", "exec", "--backend", b, "--workspace", ws.string()};
    if (std::string_view(b) == "docker" && image != nullptr) argv.insert(argv.end(), {"--image", image});
    argv.insert(argv.end(), {"--", "/bin/true"});
    variants.push_back({std::string("loopwright ") + b, std::move(argv), -1, {}, {}, false});
  }
  // One warm-up round: fills the probe cache, pages in the binaries, and
  // drops backends that cannot run /bin/true here.
  for (Variant& v : variants) {
    double ms = 0;
    v.failed = runOnce(v, env, &ms) != 0;
  }
  for (int r = 0; r < runs; ++r) {
    for (Variant& v : variants) {
      if (v.failed) continue;
      double ms = 0, cpu = 0;
      if (runOnce(v, env, &ms, &cpu) == 0) {
        v.ms.push_back(ms);
        v.cpuMs.push_back(cpu);
      }
    }
  }
  double bare = median(variants[0].ms), rawMs = median(variants[1].ms);
  std::printf("sandbox_start: median of %d runs, start to exit of /bin/true\n", runs);
  std::printf("  %-30s %9s %12s %12s %10s\n", "variant", "median", "vs bare", "vs raw bwrap", "cpu");
  double bwrapRatio = 0, rawLandlockMs = 0, landlockMs = 0;
  for (const Variant& v : variants) {
    if (v.failed || v.ms.empty()) {
      std::printf("  %-30s %9s\n", v.name.c_str(), "(cannot run here)");
      continue;
    }
    double m = median(v.ms);
    std::printf("  %-30s %7.2f ms %11.2fx %11.2fx %7.2f ms\n", v.name.c_str(), m, m / bare, m / rawMs,
                median(v.cpuMs));
    if (v.name == "loopwright linux-bwrap") bwrapRatio = m / rawMs;
    if (v.name == "raw landlock (same rules)") rawLandlockMs = m;
    if (v.name == "loopwright linux-landlock") landlockMs = m;
  }
  if (!noRawLandlock.empty()) std::printf("  raw landlock not measured: %s\n", noRawLandlock.c_str());
  if (rawLandlockMs > 0 && landlockMs > 0)
    std::printf("  loopwright linux-landlock vs raw landlock: %.2fx\n", landlockMs / rawLandlockMs);
  std::error_code ec;
  fs::remove_all(ws, ec);
  if (check && !(bwrapRatio > 0 && bwrapRatio <= 1.2)) {
    std::printf("FAIL: loopwright linux-bwrap costs %.2fx raw bwrap (limit 1.2x)\n", bwrapRatio);
    return 1;
  }
  return 0;
}
