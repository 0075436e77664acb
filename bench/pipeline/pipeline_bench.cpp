// A stage of 6 trivial steps (/bin/true) on linux-bwrap: `loopwright run`
// (negotiation, baseline and check of every step, bridge, run record) against
// the same 6 sandboxes run back to back by raw bwrap with the flags the
// pipeline's plan gives them, interleaved round by round in one run.
// Prints the medians of the stage (its wall time in run.json: provisioning to
// the last verification), of the whole `loopwright run` process (the stage
// plus starting the executables, loading and planning, and the run record),
// and the overhead per step.
// Usage: bench_pipeline [RUNS] [--check]  (--check: exit 1 unless the stage
// takes less wall time than the 6 raw sandboxes back to back).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "common/bench_support.h"
#include "policy/model/effective_policy.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr int kSteps = 6;

// Runs argv quietly in this process's environment; returns its exit status.
int run(const std::vector<std::string>& argv, const lw::bench::ChildFds& fds = {}) {
  double ms = 0;
  return lw::bench::runQuiet(argv, {}, fds, &ms);
}

using lw::bench::median;

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 && argv[1][0] != '-' ? std::atoi(argv[1]) : 15;
  bool check = argc > 1 && std::strcmp(argv[argc - 1], "--check") == 0;
  char tmpl[] = "/tmp/lw-bench-pipeline-XXXXXX";
  fs::path root = ::mkdtemp(tmpl);
  fs::path repo = root / "repo";
  fs::create_directories(repo / ".loopwright");
  std::string steps;
  for (int i = 0; i < kSteps; ++i) steps += "        - {name: s" + std::to_string(i) + ", run: [/bin/true]}\n";
  std::ofstream(repo / ".loopwright/taskpack.yaml")
      << "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: bench}\nspec:\n"
         "  sandbox: {preferredBackends: [linux-bwrap]}\n  maxConcurrency: "
      << kSteps
      << "\n"
         "  stages:\n    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
      << steps;
  std::ofstream(repo / "README.md") << "bench\n";
  std::string git = "cd '" + repo.string() +
                    "' && git init -q && git add -A && git -c user.name=b -c user.email=b@invalid commit -qm b";
  if (std::system(git.c_str()) != 0) return 2;
  std::ofstream(root / "host.yaml") << "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n";
  ::setenv("LOOPWRIGHT_HOST_CONFIG", (root / "host.yaml").c_str(), 1);

  // The raw equivalent of one step: the pipeline's StepSpec, planned by the
  // same planner, with the same seccomp filter.
  const char* home = std::getenv("HOME");
  lw::sandbox::StepSpec spec;
  spec.argv = {"/bin/true"};
  spec.workspace = repo;
  fs::create_directories(root / "out");
  spec.outDir = root / "out";
  spec.workdir = repo;
  for (std::string_view p : lw::kBuiltinProtectedPaths) spec.protectedPaths.push_back(repo / std::string(p));
  for (std::string_view d : lw::kBuiltinDeniedReadPaths)
    spec.deniedReadPaths.push_back(fs::path(home ? home : "/root") / std::string(d.substr(2)));
  auto raw = lw::bench::planRawBwrap(spec);
  if (!raw) {
    std::fprintf(stderr, "bench_pipeline: cannot plan raw bwrap here\n");
    return 2;
  }

  std::vector<std::string> lw = {
      LOOPWRIGHT_BIN,         "run", "--repo", repo.string(), "--event-name", "workflow_dispatch", "--out",
      (root / "run").string()};
  std::vector<double> stage, whole, rawMs;
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    if (run(lw) != 0) {
      std::fprintf(stderr, "bench_pipeline: loopwright run failed\n");
      return 2;
    }
    whole.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    std::ifstream record(root / "run" / "run.json");
    std::string text((std::istreambuf_iterator<char>(record)), std::istreambuf_iterator<char>());
    boost::system::error_code ec;
    auto json = boost::json::parse(text, ec);
    const auto* stages = ec ? nullptr : json.as_object().if_contains("stages");
    if (!stages || stages->as_array().empty()) {
      std::fprintf(stderr, "bench_pipeline: run.json has no stage\n");
      return 2;
    }
    stage.push_back(stages->as_array()[0].at("durationMs").to_number<double>());
    fs::remove_all(root / "run");
    t0 = Clock::now();
    for (int i = 0; i < kSteps; ++i)
      if (run(raw->argv, raw->fds) != 0) {
        std::fprintf(stderr, "bench_pipeline: raw bwrap failed\n");
        return 2;
      }
    rawMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  double s = median(stage), w = median(whole), b = median(rawMs);
  std::printf("stage of %d /bin/true steps on linux-bwrap, median of %d runs\n", kSteps, runs);
  std::printf("  raw bwrap, %d back to back       %8.1f ms  (%.1f ms per sandbox)\n", kSteps, b, b / kSteps);
  std::printf("  the stage (run.json)             %8.1f ms  ratio %.2fx\n", s, s / b);
  std::printf("  loopwright run, whole process    %8.1f ms  ratio %.2fx\n", w, w / b);
  std::printf("  orchestration overhead           %8.1f ms for the stage, %.1f ms per step;\n", s - b,
              (s - b) / kSteps);
  std::printf("                                   %8.1f ms outside the stage (start-up, record)\n", w - s);
  // How robust the median is on a busy machine: rounds won, each stage
  // against the raw run right after it.
  int won = 0;
  for (std::size_t i = 0; i < stage.size(); ++i) won += stage[i] < rawMs[i] ? 1 : 0;
  std::printf("  rounds the stage beat the raw run: %d of %d\n", won, runs);
  fs::remove_all(root);
  return check && s >= b ? 1 : 0;
}
