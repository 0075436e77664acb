#include "verify/git/git_maintenance.h"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace lw::verify {
namespace {

namespace fs = std::filesystem;

// git gc's own rule (builtin/gc.c lock_repo_for_gc): a gc.pid older than
// this is stale whatever it names.
constexpr std::time_t kStaleAfterS = 12 * 3600;

std::optional<std::string> readSmall(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(4096, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

class HostProcesses final : public ProcessView {
 public:
  std::string hostname() const override {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
  }

  bool isLiveGitMaintenance(std::int64_t pid) const override {
    std::string dir = "/proc/" + std::to_string(pid);
    // The pid may have been reused since gc wrote it: only a git gc counts
    // (the detached gc keeps the argv of the `git gc --auto` it forked from).
    auto comm = readSmall(dir + "/comm");
    if (!comm || (*comm != "git\n" && !comm->starts_with("git-"))) return false;
    auto cmdline = readSmall(dir + "/cmdline");
    if (!cmdline || (!hasArgument(*cmdline, "gc") && !hasArgument(*cmdline, "maintenance"))) return false;
    // "pid (comm) S ...": a zombie has ended, whoever has yet to reap it.
    auto stat = readSmall(dir + "/stat");
    if (!stat) return false;
    auto close = stat->rfind(')');
    return close != std::string::npos && close + 2 < stat->size() && (*stat)[close + 2] != 'Z';
  }

 private:
  static bool hasArgument(const std::string& cmdline, std::string_view arg) {
    std::size_t start = 0;
    while (start < cmdline.size()) {
      std::size_t end = cmdline.find('\0', start);
      if (end == std::string::npos) end = cmdline.size();
      if (std::string_view(cmdline).substr(start, end - start) == arg) return true;
      start = end + 1;
    }
    return false;
  }
};

// The live gc a gc.pid names, if any (by git's rules: this host, not stale).
std::optional<std::int64_t> runningGc(const std::string& pidFile, const ProcessView& processes) {
  struct stat s {};
  if (stat(pidFile.c_str(), &s) != 0) return std::nullopt;
  if (std::time(nullptr) - s.st_mtime > kStaleAfterS) return std::nullopt;
  auto text = readSmall(pidFile);
  auto lock = text ? parseGcPid(*text) : std::nullopt;
  if (!lock || lock->host != processes.hostname()) return std::nullopt;
  if (!processes.isLiveGitMaintenance(lock->pid)) return std::nullopt;
  return lock->pid;
}

}  // namespace

std::optional<GcLock> parseGcPid(std::string_view text) {
  GcLock lock;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), lock.pid);
  if (ec != std::errc() || lock.pid <= 0 || end == text.data() + text.size() || *end != ' ') return std::nullopt;
  std::string_view host = text.substr(static_cast<std::size_t>(end - text.data()) + 1);
  while (!host.empty() && (host.back() == '\n' || host.back() == '\r')) host.remove_suffix(1);
  if (host.empty()) return std::nullopt;
  lock.host = std::string(host);
  return lock;
}

std::vector<std::string> gcPidFiles(const std::string& gitDir) {
  std::vector<std::string> files{gitDir + "/gc.pid"};
  std::error_code ec;
  fs::recursive_directory_iterator it(gitDir + "/modules", fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    std::string name = p.filename().string();
    // A submodule's git directory has HEAD; its objects and refs hold no gc.pid.
    if (it->is_directory(ec) && (name == "objects" || name == "refs" || name == "logs")) {
      it.disable_recursion_pending();
    } else if (name == "HEAD") {
      files.push_back(p.parent_path().string() + "/gc.pid");
    }
  }
  return files;
}

const ProcessView& hostProcesses() {
  static const HostProcesses processes;
  return processes;
}

Result<std::vector<MaintenanceWait>> waitForGitMaintenance(const std::string& gitDir, std::chrono::milliseconds timeout,
                                                           std::chrono::milliseconds poll,
                                                           const ProcessView& processes) {
  using Clock = std::chrono::steady_clock;
  std::vector<MaintenanceWait> waits;
  const auto start = Clock::now();
  for (const std::string& pidFile : gcPidFiles(gitDir)) {
    auto pid = runningGc(pidFile, processes);
    if (!pid) continue;
    const std::int64_t first = *pid;
    const auto began = Clock::now();
    while (pid) {
      if (Clock::now() - start >= timeout)
        return makeError(ErrorCode::IoError,
                         "git's background maintenance (git gc, pid " + std::to_string(*pid) + " in " + pidFile +
                             ") still runs after " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) +
                             " s; no baseline is taken while git rewrites the repository",
                         "let it finish (or stop it: kill " + std::to_string(*pid) +
                             ") and run again; 'git config gc.autoDetach false' in the checkout keeps git from "
                             "leaving it running",
                         pidFile);
      std::this_thread::sleep_for(poll);
      pid = runningGc(pidFile, processes);
    }
    auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - began);
    waits.push_back({pidFile, first, waited.count()});
  }
  return waits;
}

}  // namespace lw::verify
