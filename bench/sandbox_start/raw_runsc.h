// The floor of linux-gvisor: raw `runsc run` of the bundle loopwright's
// planner gives the same step (same mounts, same flags, same filter), made
// once or afresh for each run, with nothing else around it — and the peak
// memory of an idle gVisor step.
#pragma once

#include <unistd.h>

#include <boost/json/serialize.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/executables.h"
#include "sandbox/bwrap/bwrap_plan.h"
#include "sandbox/gvisor/gvisor_backend.h"
#include "sandbox/gvisor/gvisor_plan.h"

namespace lw::bench {

// One step's gVisor scratch as linux-gvisor writes it (gvisor_container.h):
// the bundle (config.json, the empty root and its symlinks), runsc's state
// root and the seccomp filter, all under `dir`.
struct RunscScratch {
  std::filesystem::path dir;
  std::string config;
  std::vector<std::pair<std::filesystem::path, std::string>> rootSymlinks;
  std::vector<char> filter;
};

inline bool writeRunscScratch(const RunscScratch& s) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(s.dir / "bundle" / "rootfs", ec);
  if (!ec) fs::create_directories(s.dir / "state", ec);
  for (const auto& [path, target] : s.rootSymlinks)
    if (!ec) fs::create_symlink(target, s.dir / "bundle" / "rootfs" / path.relative_path(), ec);
  std::ofstream(s.dir / "seccomp.bpf", std::ios::binary).write(s.filter.data(), s.filter.size());
  std::ofstream config(s.dir / "bundle" / "config.json");
  config << s.config;
  return !ec && config.flush();
}

inline void removeRunscScratch(const RunscScratch& s) {
  std::error_code ec;
  std::filesystem::remove_all(s.dir, ec);
}

struct RawRunsc {
  std::vector<std::string> argv;
  RunscScratch scratch;  // written once by planRawRunsc, or before each run (fresh)
};

// runsc run of `spec`'s bundle in a scratch at `dir`, with linux-gvisor's
// flags; nullopt without runsc. The scratch is written here, unless
// `fresh`: then the caller writes and removes it around each run, as
// linux-gvisor does for each step (runsc then also makes the root's mount
// points anew each time, as for a step).
inline std::optional<RawRunsc> planRawRunsc(const sandbox::StepSpec& spec, const std::filesystem::path& dir,
                                            bool fresh) {
  const std::string runsc = sandbox::gvisor::gvisorConfigFor(Environment::fromProcess()).runscPath;
  if (runsc.empty()) return std::nullopt;
  // The same entrypoint (the one installed beside LOOPWRIGHT_BIN) and filter as linux-gvisor's.
  sandbox::seccomp::FilterCache filters;
  auto filter = filters.get({spec.network, true});
  if (!filter) return std::nullopt;
  const auto& code = (*filter)->instructions();
  const char* bytes = reinterpret_cast<const char*>(code.data());
  RawRunsc r;
  r.scratch.dir = dir;
  r.scratch.filter.assign(bytes, bytes + code.size() * sizeof(code[0]));
  // The planner looks the filter file up (a path missing on the host is not bound).
  if (!writeRunscScratch(r.scratch)) return std::nullopt;
  const sandbox::StepSpec inInit = sandbox::gvisor::withContainerInit(
      spec, std::filesystem::path(LOOPWRIGHT_BIN).parent_path() / kContainerInitExecutable, dir / "seccomp.bpf");
  auto plan = sandbox::gvisor::planGvisor(inInit, {dir / "bundle" / "rootfs", false, {}}, &sandbox::bwrap::lstatPath);
  if (!plan) return std::nullopt;
  r.scratch.config = boost::json::serialize(plan->config);
  r.scratch.rootSymlinks = plan->rootSymlinks;
  if (fresh)
    removeRunscScratch(r.scratch);
  else if (!writeRunscScratch(r.scratch))
    return std::nullopt;
  // linux-gvisor's flags: --log holds only runsc's own errors (none when it starts).
  r.argv = {runsc, "--root", (dir / "state").string(), "--log", (dir / "runsc.log").string(), "--ignore-cgroups"};
  r.argv.insert(r.argv.end(), plan->runscFlags.begin(), plan->runscFlags.end());
  if (::geteuid() != 0) r.argv.emplace_back("--rootless");
  r.argv.insert(r.argv.end(), {"run", "--bundle", (dir / "bundle").string(), "lw-bench"});
  return r;
}

// The summed VmRSS, in KiB, of every process whose command line names
// runsc (the runsc front, its Sentry and its gofer).
inline long runscResidentKiB() {
  long total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    std::string line;
    try {  // a process may end while it is read
      std::ifstream cmd(e.path() / "cmdline");
      line.assign(std::istreambuf_iterator<char>(cmd), {});
    } catch (const std::exception&) {
      continue;
    }
    if (line.find("runsc") == std::string::npos) continue;
    std::ifstream status(e.path() / "status");
    for (std::string l; std::getline(status, l);)
      if (l.rfind("VmRSS:", 0) == 0) total += std::atol(l.c_str() + 6);
  }
  return total;
}

}  // namespace lw::bench
