// bench/qualify: the wall time of `loopwright qualify`, fresh (every probe
// and canary) against cached (the fingerprint only), median of N runs each,
// in a private state dir. --check fails unless cached is at least 10x faster
// and under 200 ms: job-started runs the cached one at every job start.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

double runMs(const std::vector<std::string>& args, const std::string& hostConfig) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "LOOPWRIGHT_HOST_CONFIG=", 23) != 0 && std::strncmp(*e, "GITHUB_STEP_SUMMARY=", 20) != 0)
      env.push_back(*e);
  env.push_back("LOOPWRIGHT_HOST_CONFIG=" + hostConfig);
  std::vector<std::string> argv = {LOOPWRIGHT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> a, e;
  for (auto& s : argv) a.push_back(s.data());
  for (auto& s : env) e.push_back(s.data());
  a.push_back(nullptr);
  e.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  auto t = std::chrono::steady_clock::now();
  pid_t pid = -1;
  if (posix_spawn(&pid, LOOPWRIGHT_BIN, &fa, nullptr, a.data(), e.data()) != 0) return -1;
  int st = 0;
  ::waitpid(pid, &st, 0);
  posix_spawn_file_actions_destroy(&fa);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    std::fprintf(stderr, "qualify exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    return -1;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false;
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check") == 0)
      check = true;
    else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
  }
  char tmpl[] = "/tmp/lw-bench-qualify-XXXXXX";
  fs::path dir = ::mkdtemp(tmpl);
  fs::path config = dir / "host.yaml";
  std::ofstream(config) << "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nstateDir: "
                        << (dir / "state").string() << "\n";
  std::vector<double> fresh, cached;
  for (int i = 0; i < runs; ++i) {
    double f = runMs({"qualify", "--fresh"}, config.string());
    double c = runMs({"qualify"}, config.string());
    if (f < 0 || c < 0) return 2;
    fresh.push_back(f);
    cached.push_back(c);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  double mf = median(fresh), mc = median(cached);
  std::printf("qualify fresh  (all backends, probes + canaries): median %.1f ms over %d runs\n", mf, runs);
  std::printf("qualify cached (fingerprint only):                 median %.1f ms over %d runs\n", mc, runs);
  std::printf("ratio fresh/cached: %.1fx\n", mf / mc);
  if (check && (mc * 10 > mf || mc > 200)) {
    std::printf("FAIL: cached qualify must be >= 10x faster than fresh and under 200 ms\n");
    return 1;
  }
  return 0;
}
