// `loopwright eval` on 20 cases of examples/evals against the steps' own
// time: the repository of examples/pr-review, a taskpack of its two
// deterministic steps (builtin/security, builtin/lint with shellcheck: no
// model, so that only loopwright is measured), each case run through `run`'s
// path. Prints the medians of the whole `loopwright eval` process, of the
// steps' own time (the run records' durations, summed) and of eval's own
// time per case (making the head commit, the worktree, the event, scoring),
// and eval's overhead per case over the steps.
// Usage: bench_eval [RUNS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "common/bench_support.h"

namespace {

namespace fs = std::filesystem;
constexpr int kCases = 20;

const char* kTaskpack =
    "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: bench}\nspec:\n  stages:\n"
    "    - name: review\n      on: [pull_request.opened, pull_request.synchronize]\n      steps:\n"
    "        - {name: security, uses: builtin/security}\n"
    "        - name: shellcheck\n          uses: builtin/lint\n"
    "          with: {command: [sh, -c, 'set -- scripts/*.sh; [ -e \"$1\" ] || exit 0; shellcheck -f checkstyle "
    "\"$@\"'], format: checkstyle}\n";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  char tmpl[] = "/tmp/lw-bench-eval-XXXXXX";
  const fs::path root = ::mkdtemp(tmpl);
  const std::string source = LOOPWRIGHT_SOURCE_DIR;
  const fs::path repo = root / "repo", cases = root / "cases";
  if (std::system(("'" + source + "/examples/pr-review/make-repo.sh' '" + repo.string() + "' >/dev/null && git -C '" +
                   repo.string() + "' checkout -q main")
                      .c_str()) != 0)
    return 2;
  std::vector<fs::path> all;
  for (const auto& e : fs::directory_iterator(source + "/examples/evals")) all.push_back(e.path());
  std::sort(all.begin(), all.end());
  fs::create_directories(cases);
  for (int i = 0; i < kCases && i < static_cast<int>(all.size()); ++i)
    fs::copy(all[i], cases / all[i].filename(), fs::copy_options::recursive);
  std::ofstream(root / "taskpack.yaml") << kTaskpack;
  std::vector<double> process, steps, own;
  for (int r = 0; r < runs; ++r) {
    const fs::path report = root / ("report" + std::to_string(r) + ".json");
    const std::string cmd = std::string(LOOPWRIGHT_BIN) + " eval --json --repo '" + repo.string() + "' --cases '" +
                            cases.string() + "' --taskpack '" + (root / "taskpack.yaml").string() + "' --out '" +
                            (root / ("out" + std::to_string(r))).string() + "' > '" + report.string() + "'";
    double ms = 0;
    if (lw::bench::runQuiet({"/bin/sh", "-c", cmd}, {}, {}, &ms) != 0) return 1;
    boost::json::value v = boost::json::parse(slurp(report));
    process.push_back(ms);
    steps.push_back(v.at("stepsMs").to_number<double>());
    own.push_back(v.at("wallMs").to_number<double>() - v.at("stepsMs").to_number<double>());
  }
  const double p = lw::bench::median(process), s = lw::bench::median(steps), o = lw::bench::median(own);
  std::printf("loopwright eval, %d cases x 2 steps (builtin/security, builtin/lint), median of %d runs\n", kCases,
              runs);
  std::printf("  %-44s %9.1f ms\n", "the eval process, start to exit", p);
  std::printf("  %-44s %9.1f ms\n", "the steps' own time (run records, summed)", s);
  std::printf("  %-44s %9.1f ms  (%.1f ms per case)\n", "eval around the runs (commit, worktree, event)", o,
              o / kCases);
  std::printf("  %-44s %9.1f ms  (%.1f ms per case, %.2fx the steps' time)\n", "overhead of eval over the steps", p - s,
              (p - s) / kCases, p / s);
  fs::remove_all(root);
  return 0;
}
