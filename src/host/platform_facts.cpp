// Platform, disk and cgroup facts (host_facts.h).
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "host/host_facts.h"

namespace lw::host {
namespace {

namespace fs = std::filesystem;

// linux/magic.h: CGROUP2_SUPER_MAGIC, TMPFS_MAGIC.
constexpr long kCgroup2Magic = 0x63677270;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

DiskFacts diskOf(const std::string& role, const std::string& path) {
  DiskFacts d;
  d.role = role;
  d.path = path;
  struct statvfs st {};
  if (::statvfs(path.c_str(), &st) != 0) {
    d.error = "statvfs failed";
    return d;
  }
  d.freeBytes = static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
  return d;
}

std::string libcName() {
#if defined(__GLIBC__)
  return std::string("glibc ") + ::gnu_get_libc_version();
#elif defined(__APPLE__)
  return "libSystem";
#else
  return "unknown (not glibc)";
#endif
}

}  // namespace

PlatformFacts classifyPlatform(const std::string& sysname, const std::string& machine) {
  PlatformFacts p;
  p.os = lower(sysname);
  std::string m = lower(machine);
  if (m == "x86_64" || m == "amd64")
    p.arch = "x64";
  else if (m == "aarch64" || m == "arm64")
    p.arch = "arm64";
  else
    p.arch = m;
  const std::string pair = p.os + "/" + p.arch;
  p.supported = pair == "darwin/arm64" || pair == "linux/arm64" || pair == "linux/x64";
  if (!p.supported) p.unsupportedReason = pair + " is not supported (supported: darwin/arm64, linux/arm64, linux/x64)";
  return p;
}

CgroupFacts classifyCgroup(bool unified, bool v1, const std::string& selfCgroup, bool killExists, bool killWritable) {
  CgroupFacts c;
  c.version = unified ? 2 : (v1 ? 1 : 0);
  std::istringstream in(selfCgroup);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) c.ownCgroup = line.substr(3);
  if (c.version != 2) {
    c.killReason =
        c.version == 1 ? "cgroup v1 (or hybrid): no cgroup.kill" : "no cgroup file system mounted at /sys/fs/cgroup";
  } else if (c.ownCgroup.empty()) {
    c.killReason = "this process's cgroup v2 path is unknown";
  } else if (!killExists) {
    c.killReason = "no cgroup.kill in " + c.ownCgroup + " (kernel older than 5.14?)";
  } else if (!killWritable) {
    c.killReason = "cgroup.kill in " + c.ownCgroup + " is not writable by this user (not delegated)";
  } else {
    c.killUsable = true;
    c.killReason = "cgroup.kill in " + c.ownCgroup + " is writable";
  }
  return c;
}

HostFacts observeHost(const Environment& env, const std::string& runnerDir) {
  HostFacts h;
  struct utsname u {};
  if (::uname(&u) == 0) {
    h.platform = classifyPlatform(u.sysname, u.machine);
    h.platform.kernel = u.release;
  } else {
    h.platform = classifyPlatform("unknown", "unknown");
  }
  h.platform.libc = libcName();

  std::error_code ec;
  std::string work =
      env.get("GITHUB_WORKSPACE").value_or(env.get("RUNNER_WORKSPACE").value_or(fs::current_path(ec).string()));
  std::string temp = env.get("RUNNER_TEMP").value_or(env.get("TMPDIR").value_or("/tmp"));
  h.disks = {diskOf("work", work), diskOf("temp", temp)};

  struct statfs sf {};
  bool unified = ::statfs("/sys/fs/cgroup", &sf) == 0 && static_cast<long>(sf.f_type) == kCgroup2Magic;
  bool v1 = !unified && fs::exists("/sys/fs/cgroup/memory", ec);
  std::string self = readAll("/proc/self/cgroup");
  bool killExists = false, killWritable = false;
  if (unified) {
    CgroupFacts pre = classifyCgroup(true, false, self, false, false);
    if (!pre.ownCgroup.empty()) {
      std::string kill = "/sys/fs/cgroup" + pre.ownCgroup + "/cgroup.kill";
      killExists = ::access(kill.c_str(), F_OK) == 0;
      killWritable = killExists && ::access(kill.c_str(), W_OK) == 0;
    }
  }
  h.cgroup = classifyCgroup(unified, v1, self, killExists, killWritable);
  h.userns = readUsernsSysctls();
  std::optional<std::string> runnerFile, dotEnv;
  if (!runnerDir.empty()) {
    if (fs::exists(runnerDir + "/.runner", ec)) runnerFile = readAll(runnerDir + "/.runner");
    if (fs::exists(runnerDir + "/.env", ec)) dotEnv = readAll(runnerDir + "/.env");
  }
  h.runner = classifyRunner(env, runnerDir, runnerFile, dotEnv);
  return h;
}

}  // namespace lw::host
