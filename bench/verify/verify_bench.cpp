// Baseline + check (reviewer, nothing changed) against
// `git status --porcelain --untracked-files=all --ignored` on a generated
// repository: 100k tracked files in nested directories plus an ignored
// directory of 20k small files (within the default capture budget).
//
// usage: bench_verify [--files N] [--ignored N] [--runs N] [--dir DIR] [--keep]
// Prints the median of each and their ratio; exits 1 when the ratio is over
// --max-ratio (default 1.5). The CPU time of each (user + system, all
// threads) is printed too: on a small, shared machine it varies less than
// the wall time and shows what a change saved even when the clock hides it.
// A last row is the floor of any verification that observes the tree before
// and after a step (bare_walk.h): two bare stat walks and one read of the
// ignored files, nothing else.
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "bare_walk.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// User + system time so far of this process (RUSAGE_SELF) or of its waited-for
// children (RUSAGE_CHILDREN), in milliseconds.
double cpuMs(int who) {
  rusage u{};
  getrusage(who, &u);
  auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

int run(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

void generate(const std::string& dir, int files, int ignored) {
  fs::create_directories(dir);
  // 100 top directories x 10 subdirectories x N files: nested like a real tree.
  int perLeaf = std::max(1, files / 1000);
  int made = 0;
  for (int a = 0; a < 100 && made < files; ++a)
    for (int b = 0; b < 10 && made < files; ++b) {
      std::string d = dir + "/src" + std::to_string(a) + "/mod" + std::to_string(b);
      fs::create_directories(d);
      for (int c = 0; c < perLeaf && made < files; ++c, ++made)
        std::ofstream(d + "/file" + std::to_string(c) + ".txt") << "file " << a << "/" << b << "/" << c << "\n";
    }
  std::ofstream(dir + "/.gitignore") << "build/\n";
  for (int i = 0; i < ignored; ++i) {
    std::string d = dir + "/build/obj" + std::to_string(i / 1000);
    if (i % 1000 == 0) fs::create_directories(d);
    std::ofstream(d + "/o" + std::to_string(i) + ".o") << "obj " << i << "\n";
  }
  std::string q = "'" + dir + "'";
  // No automatic gc: after a commit of 100k loose objects git would start
  // one in the background, and it rewrites .git while the check runs.
  if (run("cd " + q +
          " && git init -q . && git config gc.auto 0 && git config maintenance.auto false"
          " && git add -A && git -c user.name=b -c user.email=b@x "
          "commit -qm bench && git status --porcelain >/dev/null") != 0)
    throw std::runtime_error("git setup failed");
}

}  // namespace

int main(int argc, char** argv) {
  int files = 100000, ignored = 20000, runs = 5;
  double maxRatio = 1.5;
  std::string dir;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--files")
      files = std::stoi(next());
    else if (a == "--ignored")
      ignored = std::stoi(next());
    else if (a == "--runs")
      runs = std::stoi(next());
    else if (a == "--dir")
      dir = next();
    else if (a == "--max-ratio")
      maxRatio = std::stod(next());
    else if (a == "--keep")
      keep = true;
    else {
      std::cerr << "usage: bench_verify [--files N] [--ignored N] [--runs N] [--dir DIR] [--keep] [--max-ratio R]\n";
      return 2;
    }
  }
  std::string root = (fs::temp_directory_path() / "lw-bench-verify").string();
  if (dir.empty()) dir = root + "/repo";
  bool fresh = !fs::exists(dir + "/.git");
  if (fresh) {
    std::cerr << "generating " << files << " tracked + " << ignored << " ignored files in " << dir << "\n";
    generate(dir, files, ignored);
  }
  std::string store = root + "/store";
  fs::create_directories(root);

  std::string status = "cd '" + dir + "' && git status --porcelain --untracked-files=all --ignored >/dev/null";
  std::vector<double> gitMs, baseMs, checkMs, totalMs, gitCpu, baseCpu, checkCpu, floorMs, floorCpu;
  unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);  // as the walk's default
  lw::verify::BaselineOptions opts;
  opts.storePath = store;
  for (int r = 0; r < runs + 1; ++r) {  // the first round warms the caches
    double children0 = cpuMs(RUSAGE_CHILDREN);
    auto t0 = Clock::now();
    if (run(status) != 0) return 70;
    auto t1 = Clock::now();
    double children1 = cpuMs(RUSAGE_CHILDREN), self1 = cpuMs(RUSAGE_SELF);
    auto baseline = lw::verify::takeBaseline(dir, opts);
    auto t2 = Clock::now();
    double self2 = cpuMs(RUSAGE_SELF);
    if (!baseline) {
      std::cerr << "baseline failed: " << baseline.error().message << "\n";
      return 70;
    }
    lw::verify::CheckPolicy policy;
    auto report = lw::verify::check(*baseline, policy);
    auto t3 = Clock::now();
    double self3 = cpuMs(RUSAGE_SELF);
    if (!report || !report->ok()) {
      std::cerr << "check failed or found changes in an untouched repository\n";
      if (report)
        for (const auto& c : report->changes) std::cerr << "  " << c.path << "\n";
      return 70;
    }
    double self4 = cpuMs(RUSAGE_SELF);
    auto t4 = Clock::now();
    lw::bench::BareWalk::run(dir, "build", threads);
    lw::bench::BareWalk::run(dir, nullptr, threads);
    auto t5 = Clock::now();
    double self5 = cpuMs(RUSAGE_SELF);
    if (r == 0) {
      std::cerr << "entries " << baseline->entries.size() << ", ignored captured " << baseline->ignoredCapturedFiles
                << " files / " << baseline->ignoredCapturedBytes << " bytes, not restorable " << baseline->notRestorable
                << "\n";
      continue;
    }
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    gitMs.push_back(ms(t0, t1));
    baseMs.push_back(ms(t1, t2));
    checkMs.push_back(ms(t2, t3));
    totalMs.push_back(ms(t1, t3));
    floorMs.push_back(ms(t4, t5));
    floorCpu.push_back(self5 - self4);
    gitCpu.push_back(children1 - children0);
    baseCpu.push_back(self2 - self1);
    checkCpu.push_back(self3 - self2);
  }
  double g = median(gitMs), b = median(baseMs), c = median(checkMs), t = median(totalMs);
  std::printf("files: %d tracked, %d ignored; runs: %d (medians)\n", files, ignored, runs);
  std::printf("%-55s %8s %10s\n", "", "wall", "cpu");
  std::printf("%-55s %5.1f ms %7.1f ms\n", "git status --porcelain --untracked-files=all --ignored:", g,
              median(gitCpu));
  std::printf("%-55s %5.1f ms %7.1f ms\n", "loopwright baseline:", b, median(baseCpu));
  std::printf("%-55s %5.1f ms %7.1f ms\n", "loopwright check:", c, median(checkCpu));
  std::printf("%-55s %5.1f ms\n", "baseline + check:", t);
  std::printf("%-55s %5.1f ms %7.1f ms\n", "floor: two bare stat walks, ignored files read once:", median(floorMs),
              median(floorCpu));
  std::printf("%-55s %5.2f    (limit %.2f)\n", "ratio (baseline + check) / git status:", t / g, maxRatio);
  std::printf("%-55s %5.2f\n", "ratio floor / git status:", median(floorMs) / g);
  if (!keep && fresh) fs::remove_all(root);
  return t / g <= maxRatio ? 0 : 1;
}
