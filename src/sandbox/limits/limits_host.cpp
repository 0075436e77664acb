#include "sandbox/limits/limits_host.h"

#include <dirent.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/file_io.h"

namespace lw::sandbox::limits {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

bool hasWord(std::string_view list, std::string_view word, char sep) {
  for (std::string_view w : split(list, sep))
    if (w == word) return true;
  return false;
}

// This process's path in each hierarchy, from /proc/self/cgroup: "0::/a"
// is v2, "4:memory:/a" a v1 controller.
struct OwnCgroups {
  std::optional<std::string> v2, pids, memory;
};

OwnCgroups ownCgroupsFrom(std::string_view procSelfCgroup) {
  OwnCgroups own;
  for (std::string_view line : split(procSelfCgroup, '\n')) {
    auto f = split(line, ':');
    if (f.size() < 3) continue;
    std::string path(line.substr(f[0].size() + f[1].size() + 2));
    if (f[0] == "0" && f[1].empty()) own.v2 = path;
    if (hasWord(f[1], "pids", ',')) own.pids = path;
    if (hasWord(f[1], "memory", ',')) own.memory = path;
  }
  return own;
}

// A mount point and a path in its hierarchy: "/" is the mount point itself.
std::string joined(std::string_view mountPoint, const std::string& path) {
  return std::string(mountPoint) + (path == "/" ? "" : path);
}

CgroupFs cgroupFsAt(const std::string& dir) {
  struct statfs fs {};
  if (::statfs(dir.c_str(), &fs) != 0) return CgroupFs::NotCgroup;
  if (fs.f_type == CGROUP2_SUPER_MAGIC) return CgroupFs::V2;
  return fs.f_type == CGROUP_SUPER_MAGIC ? CgroupFs::V1 : CgroupFs::NotCgroup;
}

// Empty when the file cannot be read: then no cgroup is found there.
std::string readFile(const std::string& path) {
  auto text = readBoundedFile(path, 1 << 20, ErrorCode::IoError);
  return text ? *text : std::string();
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Whether a child cgroup can be made here (a read-only or undelegated
// hierarchy refuses it; so does an unprivileged user). Asked of the kernel's
// permission check, not by making one: a cgroup made and removed costs every
// loopwright process about a millisecond. Should mkdir still fail, the
// launch fails closed (limits_applier.cpp).
bool canCreateChild(const std::string& dir, std::string& why) {
  if (dir.empty()) return false;
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    if (why.empty()) why = "cannot create a cgroup in " + dir + " (" + std::strerror(errno) + ")";
    return false;
  }
  return true;
}

// Step cgroups left by a loopwright that was killed before it removed them
// (their owner's pid is gone): removed when empty (rmdir refuses a cgroup
// that still has processes). Returns the removed directories.
std::vector<std::string> removeStaleStepCgroups(const std::string& dir) {
  std::vector<std::string> removed;
  if (dir.empty()) return removed;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return removed;
  while (dirent* e = ::readdir(d)) {
    auto pid = stepCgroupOwner(e->d_name);
    if (!pid || ::kill(static_cast<pid_t>(*pid), 0) == 0 || errno != ESRCH) continue;
    const std::string path = dir + "/" + e->d_name;
    if (::rmdir(path.c_str()) == 0) removed.push_back(path);
  }
  ::closedir(d);
  return removed;
}

HostLimitFacts observe() {
  HostLimitFacts f;
  f.root = ::geteuid() == 0;
  for (int r : {RLIMIT_NPROC, RLIMIT_DATA, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_CPU, RLIMIT_CORE}) {
    struct rlimit rl {};
    if (::getrlimit(r, &rl) == 0 && rl.rlim_max != RLIM_INFINITY) f.hardLimits[r] = rl.rlim_max;
  }
  const std::string own = readFile("/proc/self/cgroup");
  const auto conventional = conventionalCgroupPaths(own, &cgroupFsAt);
  const CgroupPaths paths = conventional ? *conventional : cgroupPathsFrom(own, readFile("/proc/self/mountinfo"));
  std::string why;
  if (!paths.v2Dir.empty()) {
    std::string control = readFile(paths.v2Dir + "/cgroup.subtree_control");
    control = control.substr(0, control.find('\n'));
    bool both = hasWord(control, "pids", ' ') && hasWord(control, "memory", ' ');
    if (!both) why = "the cgroup v2 subtree " + paths.v2Dir + " does not delegate pids and memory";
    if (both && canCreateChild(paths.v2Dir, why)) {
      f.v2Parent = paths.v2Dir;
      f.v2SwapFile = exists(paths.v2Dir + "/memory.swap.max");
      return f;
    }
  }
  std::string v1why;
  if (canCreateChild(paths.v1PidsDir, v1why)) f.v1PidsParent = paths.v1PidsDir;
  if (canCreateChild(paths.v1MemoryDir, v1why)) {
    f.v1MemoryParent = paths.v1MemoryDir;
    f.v1MemswFile = exists(paths.v1MemoryDir + "/memory.memsw.limit_in_bytes");
  }
  if (why.empty()) why = v1why;
  if (why.empty()) why = "no cgroup v2 subtree or v1 hierarchy is mounted for pids and memory";
  f.noCgroupReason = why;
  return f;
}

}  // namespace

CgroupPaths cgroupPathsFrom(std::string_view procSelfCgroup, std::string_view mountinfo) {
  const OwnCgroups own = ownCgroupsFrom(procSelfCgroup);
  // mountinfo: "id parent maj:min root mountpoint opts … - fstype source superopts".
  CgroupPaths out;
  for (std::string_view line : split(mountinfo, '\n')) {
    auto f = split(line, ' ');
    std::size_t dash = 0;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash + 3 >= f.size() || f.size() < 5) continue;
    std::string_view root = f[3], point = f[4], type = f[dash + 1], super = f[dash + 3];
    auto under = [&](const std::string& path) -> std::string {
      // Our path is relative to the hierarchy's root; the mount may show a subtree of it.
      if (root == "/") return joined(point, path);
      if (path.starts_with(root)) return std::string(point) + path.substr(root.size());
      return {};
    };
    if (type == "cgroup2" && own.v2 && out.v2Dir.empty()) out.v2Dir = under(*own.v2);
    if (type == "cgroup" && hasWord(super, "pids", ',') && own.pids && out.v1PidsDir.empty())
      out.v1PidsDir = under(*own.pids);
    if (type == "cgroup" && hasWord(super, "memory", ',') && own.memory && out.v1MemoryDir.empty())
      out.v1MemoryDir = under(*own.memory);
  }
  return out;
}

std::optional<CgroupPaths> conventionalCgroupPaths(std::string_view procSelfCgroup, const CgroupFsLookup& fsAt) {
  const OwnCgroups own = ownCgroupsFrom(procSelfCgroup);
  const std::string base = "/sys/fs/cgroup";
  CgroupPaths out;
  if (own.v2) {
    for (const std::string& mount : {base, base + "/unified"}) {
      if (fsAt(joined(mount, *own.v2)) != CgroupFs::V2) continue;
      out.v2Dir = joined(mount, *own.v2);
      break;
    }
    if (out.v2Dir.empty()) return std::nullopt;
  }
  auto v1 = [&](const std::optional<std::string>& path, const char* controller, std::string& dir) {
    if (!path) return true;
    dir = joined(base + "/" + controller, *path);
    return fsAt(dir) == CgroupFs::V1;
  };
  if (!v1(own.pids, "pids", out.v1PidsDir) || !v1(own.memory, "memory", out.v1MemoryDir)) return std::nullopt;
  return out;
}

const HostLimitFacts& observedHostLimitFacts() {
  static const HostLimitFacts facts = observe();
  return facts;
}

std::optional<long> stepCgroupOwner(std::string_view name) {
  constexpr std::string_view kPrefix = "loopwright-";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  if (name.starts_with("lw-")) name.remove_prefix(3);  // a gVisor step's: its container's name
  long pid = 0;
  std::size_t digits = 0;
  for (; digits < name.size() && digits < 10 && name[digits] >= '0' && name[digits] <= '9'; ++digits)
    pid = pid * 10 + (name[digits] - '0');
  if (digits == 0 || digits == name.size() || name[digits] != '-' || pid <= 0) return std::nullopt;
  return pid;
}

std::vector<std::string> removeStaleStepCgroupsNow() {
  const HostLimitFacts& f = observedHostLimitFacts();
  std::vector<std::string> removed;
  for (const std::string* parent : {&f.v2Parent, &f.v1PidsParent, &f.v1MemoryParent}) {
    std::vector<std::string> here = removeStaleStepCgroups(*parent);
    removed.insert(removed.end(), here.begin(), here.end());
  }
  return removed;
}

void sweepStaleStepCgroups() {
  static std::once_flag once;
  std::call_once(once, [] { (void)removeStaleStepCgroupsNow(); });
}

}  // namespace lw::sandbox::limits
