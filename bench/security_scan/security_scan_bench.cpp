// builtin/security on a generated pull request of 5,000 added lines across
// workflows, shell scripts, a Dockerfile and manifests / lock files (or,
// with --workflows, workflows only; with --corpus DIR, every file under DIR
// as one pull request, e.g. tests/data/security/corpus/zizmor/test-data):
// the agent main end to end (bridge answers as JSON from memory, the diff
// parsed, each file read, every rule, findings.json written) against its
// floor, parsing the same diff alone, measured in the same run.
//
// usage: bench_security_scan [--runs N] [--lines N] [--workflows | --corpus DIR] [--max-ms MS]
// Prints the median of each; exits 1 when the agent's median is over
// --max-ms (default 200, the target of issues #15 and #25).
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "agents/security/scan/scan.h"
#include "agents/security/scan/security_agent.h"
#include "diff/unified_diff.h"

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// A workflow of about `lines` lines: jobs of steps that mix what the rules
// look for (untrusted expressions, tags, caches, images) with plain steps.
std::string workflow(int index, int lines) {
  std::ostringstream w;
  w << "name: ci-" << index << "\non:\n  pull_request_target:\n  push:\n    tags: ['v*']\njobs:\n";
  int written = 6, job = 0;
  while (written < lines) {
    w << "  job" << job++ << ":\n    runs-on: [self-hosted, linux]\n    container:\n      image: node:20\n"
      << "    steps:\n      - uses: actions/checkout@v4\n        with:\n"
      << "          ref: ${{ github.event.pull_request.head.sha }}\n"
      << "      - uses: actions/cache@v4\n        with:\n          path: ~/.npm\n          key: npm\n"
      << "      - run: |\n          echo \"${{ github.event.pull_request.title }}\"\n"
      << "          curl -fsSL https://example.com/install.sh | bash\n          npm ci\n          npm test\n"
      << "      - env:\n          TITLE: ${{ github.event.issue.title }}\n        run: echo \"T=$TITLE\" >> "
         "$GITHUB_ENV\n";
    written += 21;
  }
  return w.str();
}

std::string script(int lines) {
  std::ostringstream s;
  s << "#!/usr/bin/env bash\nset -euo pipefail\n";
  for (int i = 2; i < lines; ++i) {
    if (i % 25 == 0 && i + 1 < lines) {
      s << "curl -fsSL https://example.com/x \\\n  | sh\n";
      ++i;
    } else {
      s << "echo \"step " << i << "\"\n";
    }
  }
  return s.str();
}

std::string packageLock(int entries) {
  std::ostringstream s;
  s << "{\n  \"name\": \"app\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\n";
  for (int i = 0; i < entries; ++i)
    s << "    \"node_modules/pkg-" << i << "\": {\n      \"version\": \"1." << i << ".0\",\n"
      << "      \"resolved\": \"https://registry.npmjs.org/pkg-" << i << "/-/pkg-" << i << "-1." << i << ".0.tgz\",\n"
      << "      \"integrity\": \"sha512-" << std::string(86, 'a') << "==\"\n    },\n";
  s << "    \"\": {}\n  }\n}\n";
  return s.str();
}

std::string lines(const std::string& prefix, int n) {
  std::ostringstream s;
  for (int i = 0; i < n; ++i) s << prefix << i << "\n";
  return s.str();
}

// path -> content: about `total` lines in all.
std::map<std::string, std::string> pullRequestFiles(int total) {
  std::map<std::string, std::string> files;
  int share = total / 10;
  for (int i = 0; i < 8; ++i) files[".github/workflows/ci" + std::to_string(i) + ".yml"] = workflow(i, share * 4 / 8);
  for (int i = 0; i < 4; ++i) files["scripts/build" + std::to_string(i) + ".sh"] = script(share / 4);
  files["Dockerfile"] = "FROM debian:bookworm\n" + lines("RUN echo layer ", share / 2 - 1);
  files["package-lock.json"] = packageLock(share * 2 / 7);
  files["requirements.txt"] = lines("package-", share / 2);
  files["go.sum"] = lines("example.com/mod v1.0.0 h1:abcdefghijklmnopqrstuvwxyz", share / 2);
  files["Cargo.lock"] = [&] {
    std::ostringstream s;
    for (int i = 0; i < share / 8; ++i)
      s << "[[package]]\nname = \"crate" << i << "\"\nversion = \"0." << i << ".0\"\n\n";
    return s.str();
  }();
  // The rest in a file only the secret rule reads (from the diff alone).
  int sofar = 0;
  for (const auto& [path, content] : files) sofar += static_cast<int>(std::count(content.begin(), content.end(), '\n'));
  files["src/config.py"] = lines("API_URL_", std::max(0, total - sofar));
  return files;
}

// The same number of lines in workflows alone: what issue #25's target is about.
std::map<std::string, std::string> workflowFiles(int total) {
  std::map<std::string, std::string> files;
  for (int i = 0; i < 10; ++i)
    files[".github/workflows/ci" + std::to_string(i) + ".yml"] = workflow(i, total / 10 + 21);
  return files;
}

// Every file under `dir` at the path the rules read it at: action.yml as
// an action, any other YAML as a workflow (named after its path), the rest
// where it is.
std::map<std::string, std::string> corpusFiles(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string rel = std::filesystem::relative(entry.path(), dir).generic_string();
    std::string name = entry.path().filename().string();
    bool yaml = name.ends_with(".yml") || name.ends_with(".yaml");
    if (yaml && name != "action.yml" && name != "action.yaml") {
      std::replace(rel.begin(), rel.end(), '/', '~');
      rel = ".github/workflows/" + rel;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    files[rel] = content.str();
  }
  return files;
}

std::string newFileDiff(const std::map<std::string, std::string>& files, int* added) {
  std::ostringstream d;
  *added = 0;
  for (const auto& [path, content] : files) {
    int n = static_cast<int>(std::count(content.begin(), content.end(), '\n'));
    d << "diff --git a/" << path << " b/" << path << "\nnew file mode 100644\nindex 0000000..1111111\n"
      << "--- /dev/null\n+++ b/" << path << "\n@@ -0,0 +1," << n << " @@\n";
    std::istringstream in(content);
    for (std::string l; std::getline(in, l);) d << "+" << l << "\n";
    *added += n;
  }
  return d.str();
}

class MemoryBridge : public lw::agents::BridgeClient {
 public:
  std::string diff;
  std::map<std::string, std::string> files;
  lw::Result<json::value> call(const std::string& tool, const json::object& args) override {
    if (tool == "github.pulls.diff")
      return json::value{{"base", "b"}, {"head", "h"}, {"incremental", false}, {"diff", diff}, {"truncated", false}};
    const std::string& content = files.at(std::string(args.at("path").as_string()));
    return json::value{{"path", args.at("path")}, {"ref", "head"},      {"sha", "h"},
                       {"size", content.size()},  {"content", content}, {"truncated", false}};
  }
};

int intFlag(int argc, char** argv, const std::string& name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == name) return std::atoi(argv[i + 1]);
  return fallback;
}

const char* stringFlag(int argc, char** argv, const std::string& name) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == name) return argv[i + 1];
  return nullptr;
}

bool hasFlag(int argc, char** argv, const std::string& name) {
  return std::find(argv + 1, argv + argc, name) != argv + argc;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = intFlag(argc, argv, "--runs", 21), total = intFlag(argc, argv, "--lines", 5000);
  int maxMs = intFlag(argc, argv, "--max-ms", 200);
  MemoryBridge bridge;
  const char* corpus = stringFlag(argc, argv, "--corpus");
  bridge.files = corpus != nullptr                    ? corpusFiles(corpus)
                 : hasFlag(argc, argv, "--workflows") ? workflowFiles(total)
                                                      : pullRequestFiles(total);
  int added = 0;
  bridge.diff = newFileDiff(bridge.files, &added);
  std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("lw-bench-security-" + std::to_string(::getpid()));
  std::filesystem::create_directories(out);
  json::object params;
  std::ostringstream log;
  std::vector<double> floor, rules, agent;
  std::vector<lw::agents::security::ChangedFile> changed;
  std::size_t findingCount = 0;
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    auto parsed = lw::diff::DiffIndex::parse(bridge.diff);
    floor.push_back(ms(t0, Clock::now()));
    if (!parsed) return 2;
    changed = lw::agents::security::changedFilesFromDiff(*parsed);
    for (auto& f : changed) f.content = bridge.files.at(f.path);
    auto t1 = Clock::now();
    findingCount = lw::agents::security::scanChangedFiles(changed, {}).size();
    rules.push_back(ms(t1, Clock::now()));
    auto t2 = Clock::now();
    lw::agents::AgentContext ctx{bridge, params, out, out, log};
    int status = lw::agents::runSecurityAgent(ctx);
    agent.push_back(ms(t2, Clock::now()));
    if (status != 0) {
      std::fprintf(stderr, "bench_security_scan: the run failed:\n%s", log.str().c_str());
      return 2;
    }
    log.str("");
  }
  std::uintmax_t findingsBytes = std::filesystem::file_size(out / "findings.json");
  std::filesystem::remove_all(out);
  double f = median(floor), a = median(agent), e = median(rules);
  std::printf("builtin/security on a %d-line diff (%zu files), median of %d runs\n", added, bridge.files.size(), runs);
  std::printf("  floor: parsing the diff alone          %8.2f ms\n", f);
  std::printf("  the rules alone (files already read)    %8.2f ms\n", e);
  std::printf("  builtin/security, agent main           %8.2f ms  ratio %.1fx  (target < %d ms)\n", a, a / f, maxMs);
  std::printf("  findings.json                          %8ju bytes, %zu findings (maxFindings 200)\n", findingsBytes,
              findingCount);
  return a <= maxMs ? 0 : 1;
}
