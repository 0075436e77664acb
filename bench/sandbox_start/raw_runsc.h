// The floor of linux-gvisor: raw `runsc run` of the bundle loopwright's
// planner gives the same step (same mounts, same flags, same filter), made
// once, with nothing around it — and the peak memory of an idle gVisor step.
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

struct RawRunsc {
  std::vector<std::string> argv;
  std::filesystem::path dir;  // the bundle and the state root, removed by the caller
};

// runsc run of `spec`'s bundle under `dir`; nullopt without runsc.
inline std::optional<RawRunsc> planRawRunsc(const sandbox::StepSpec& spec, const std::filesystem::path& dir) {
  const std::string runsc = sandbox::gvisor::gvisorConfigFor(Environment::fromProcess()).runscPath;
  if (runsc.empty()) return std::nullopt;
  namespace fs = std::filesystem;
  fs::create_directories(dir / "bundle" / "rootfs");
  fs::create_directories(dir / "state");
  // The same entrypoint (the one installed beside LOOPWRIGHT_BIN) and filter as linux-gvisor's.
  sandbox::seccomp::FilterCache filters;
  auto filter = filters.get({spec.network, true});
  if (!filter) return std::nullopt;
  const auto& code = (*filter)->instructions();
  std::ofstream(dir / "seccomp.bpf", std::ios::binary)
      .write(reinterpret_cast<const char*>(code.data()), static_cast<std::streamsize>(code.size() * sizeof(code[0])));
  const sandbox::StepSpec inInit = sandbox::gvisor::withContainerInit(
      spec, std::filesystem::path(LOOPWRIGHT_BIN).parent_path() / kContainerInitExecutable, dir / "seccomp.bpf");
  auto plan = sandbox::gvisor::planGvisor(inInit, {dir / "bundle" / "rootfs", false, {}}, &sandbox::bwrap::lstatPath);
  if (!plan) return std::nullopt;
  std::error_code ec;
  for (const auto& [path, target] : plan->rootSymlinks)
    fs::create_symlink(target, dir / "bundle" / "rootfs" / path.relative_path(), ec);
  std::ofstream(dir / "bundle" / "config.json") << boost::json::serialize(plan->config);
  // linux-gvisor's flags: --log holds only runsc's own errors (none when it starts).
  RawRunsc r{{runsc, "--root", (dir / "state").string(), "--log", (dir / "runsc.log").string(), "--ignore-cgroups"},
             dir};
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
