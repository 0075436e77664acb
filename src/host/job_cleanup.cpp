#include "host/job_cleanup.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <boost/json.hpp>

#include "core/file_io.h"
#include "host/k8s_pod_setup.h"
#include "sandbox/docker/container_plan.h"
#include "sandbox/docker/docker_backend.h"
#include "sandbox/docker/engine_client.h"
#include "sandbox/gvisor/gvisor_backend.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "sandbox/limits/limits_host.h"
#include "sandbox/process/step_env.h"

namespace lw::host {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;

std::optional<std::string> readProc(const std::string& path) {
  auto r = readBoundedFile(path, 1 << 20, ErrorCode::IoError);
  if (!r) return std::nullopt;
  return std::move(r).value();
}

std::optional<unsigned long long> startTimeOf(const std::string& procRoot, int pid) {
  auto stat = readProc(procRoot + "/" + std::to_string(pid) + "/stat");
  return stat ? startTimeFromStat(*stat) : std::nullopt;
}

int parentOf(const std::string& procRoot, int pid) {
  auto stat = readProc(procRoot + "/" + std::to_string(pid) + "/stat");
  if (!stat) return 0;
  auto close = stat->rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(stat->substr(close + 2));
  std::string state;
  int ppid = 0;
  in >> state >> ppid;
  return ppid;
}

std::string commOf(const std::string& procRoot, int pid) {
  auto c = readProc(procRoot + "/" + std::to_string(pid) + "/comm");
  if (!c) return "?";
  std::string s = *c;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::vector<int> pids(const std::string& procRoot) {
  std::vector<int> out;
  DIR* d = ::opendir(procRoot.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (end != e->d_name && *end == '\0' && pid > 0) out.push_back(static_cast<int>(pid));
  }
  ::closedir(d);
  return out;
}

// Signals `pid` only if it is still the process that started at `start`:
// the pidfd pins the process, the start time read after opening it proves
// the pid was not recycled in between.
bool killVerified(const std::string& procRoot, int pid, unsigned long long start) {
  int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) {
    if (errno != ENOSYS) return false;  // gone already
    if (startTimeOf(procRoot, pid) != start) return false;
    return ::kill(pid, SIGKILL) == 0;  // kernels before 5.3: best effort
  }
  bool same = startTimeOf(procRoot, pid) == start;
  bool sent = same && ::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0) == 0;
  ::close(fd);
  return sent;
}

std::set<int> selfAndAncestors(const std::string& procRoot) {
  std::set<int> out;
  for (int p = ::getpid(); p > 1 && out.insert(p).second;) p = parentOf(procRoot, p);
  out.insert(1);
  return out;
}

void killMarked(const CleanupOptions& o, CleanupReport& report) {
  const std::set<int> spare = selfAndAncestors(o.procRoot);
  std::set<std::pair<int, unsigned long long>> seen;
  for (int round = 0; round < 50; ++round) {
    int found = 0;
    for (int pid : pids(o.procRoot)) {
      if (spare.count(pid) != 0) continue;
      auto environ = readProc(o.procRoot + "/" + std::to_string(pid) + "/environ");
      if (!environ || !environHasJob(*environ, o.job)) continue;
      auto start = startTimeOf(o.procRoot, pid);
      if (!start) continue;
      ++found;
      std::string comm = commOf(o.procRoot, pid);
      if (killVerified(o.procRoot, pid, *start) && seen.insert({pid, *start}).second)
        report.killed.push_back("pid " + std::to_string(pid) + " (" + comm + ")");
    }
    if (found == 0) return;
    std::this_thread::sleep_for(20ms);  // let SIGKILL land before the next scan
  }
  report.problems.push_back("processes of the job kept appearing after 50 rounds of killing");
}

void removeContainers(const Environment& env, const CleanupOptions& o, CleanupReport& report) {
  namespace docker = sandbox::docker;
  docker::DockerConfig config = docker::dockerConfigFromEnvironment(env);
  if (config.endpointError) return;
  std::error_code ec;
  if (!fs::exists(config.socketPath, ec)) return;  // no engine here: nothing to clean
  auto http = docker::engineTransport(config.socketPath, 2s);
  auto call = [&](const std::string& method, const std::string& target) {
    return docker::exchange(*http, docker::engineRequest(method, std::string(docker::kApiPrefix) + target, "", 10s));
  };
  // filters={"label":["dev.loopwright.run"]}, URL-encoded.
  auto list = call(
      "GET", "/containers/json?all=1&filters=%7B%22label%22%3A%5B%22" + std::string(docker::kRunLabel) + "%22%5D%7D");
  if (!list || list->status != 200) {
    report.problems.push_back("docker: cannot list containers at " + config.socketPath +
                              (list ? " (HTTP " + std::to_string(list->status) + ")" : ": " + list.error().message));
    return;
  }
  boost::system::error_code jec;
  json::value v = json::parse(list->body, jec);
  if (jec || !v.is_array()) return;
  const std::string marker = std::string(sandbox::kJobMarkerVariable) + "=" + o.job;
  for (const json::value& c : v.get_array()) {
    if (!c.is_object() || !c.get_object().contains("Id") || !c.get_object().at("Id").is_string()) continue;
    const std::string id(c.get_object().at("Id").get_string());
    auto inspect = call("GET", "/containers/" + id + "/json");
    if (!inspect || inspect->status != 200) continue;
    json::value iv = json::parse(inspect->body, jec);
    if (jec || !iv.is_object()) continue;
    const json::value* cfg = iv.get_object().if_contains("Config");
    const json::value* envs = cfg && cfg->is_object() ? cfg->get_object().if_contains("Env") : nullptr;
    bool ours = false;
    if (envs && envs->is_array())
      for (const json::value& e : envs->get_array()) ours = ours || (e.is_string() && e.get_string() == marker);
    if (!ours) continue;
    auto del = call("DELETE", "/containers/" + id + "?force=1&v=1");
    if (del && (del->status == 204 || del->status == 404))
      report.containers.push_back(id.substr(0, 12));
    else
      report.problems.push_back("docker: cannot remove container " + id.substr(0, 12));
  }
}

// A linux-gvisor step's scratch (its bundle and runsc's state), not a probe's.
bool isGvisorSandbox(const std::string& name) {
  return name.rfind(sandbox::gvisor::kScratchPrefix, 0) == 0 && name.rfind("lw-gvisor-probe-", 0) != 0;
}

void removeGvisorSandbox(const Environment& env, const fs::path& dir) {
  std::string container;
  std::ifstream(dir / "container") >> container;
  if (!container.starts_with(sandbox::gvisor::kContainerPrefix)) return;
  const sandbox::gvisor::Scratch scratch{dir,           dir / "bundle",    dir / "bundle" / "rootfs",
                                         dir / "state", dir / "runsc.log", container};
  sandbox::gvisor::removeSandbox(sandbox::gvisor::gvisorConfigFor(env).runscPath, scratch);
}

void removeScratch(const Environment& env, const CleanupOptions& o, CleanupReport& report) {
  const auto now = fs::file_time_type::clock::now();
  for (const std::string& root : o.tempRoots) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(root, ec)) {
      const std::string name = e.path().filename().string();
      if (!isSandboxScratchName(name)) continue;
      struct stat st {};
      if (::lstat(e.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
      bool remove = false;
      if (name.rfind("lw-qualify-", 0) == 0 || isGvisorSandbox(name)) {
        const ScratchOwner owner = readScratchOwner(e.path().string());
        bool ownerAlive = owner.pid > 0 && startTimeOf(o.procRoot, owner.pid) == owner.start;
        remove = owner.job == o.job || !ownerAlive;
      } else {
        // A bwrap probe lasts at most 20 s; older scratch has no live owner.
        remove = now - fs::last_write_time(e.path(), ec) > 60s && !ec;
      }
      if (!remove) continue;
      // A gVisor sandbox whose loopwright was killed: runsc delete first.
      if (isGvisorSandbox(name)) removeGvisorSandbox(env, e.path());
      removeScratchDir(e.path().string(), report);
    }
  }
}

}  // namespace

std::string scratchOwnerLine(const std::string& job) {
  return std::to_string(::getpid()) + " " + std::to_string(startTimeOf("/proc", ::getpid()).value_or(0)) + " " + job +
         "\n";
}

CleanupReport cleanUpJob(const Environment& env, const CleanupOptions& o) {
  CleanupReport report;
  if (o.job.empty()) {
    report.problems.push_back("no job to clean up (empty LOOPWRIGHT_JOB)");
    return report;
  }
  killMarked(o, report);
  if (o.docker) removeContainers(env, o, report);
  removeScratch(env, o, report);
  if (auto pods = sweepK8sPods(o.kubernetes, o.job); !pods)
    report.problems.push_back("k8s-pod: " + pods.error().message);
  else
    for (const std::string& name : *pods) report.pods.push_back(o.kubernetes->ns + "/" + name);
  // Last: a cgroup is removable only once the processes in it are gone.
  report.cgroups = sandbox::limits::removeStaleStepCgroupsNow();
  return report;
}

}  // namespace lw::host
