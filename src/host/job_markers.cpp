// The pure half of job_cleanup.h: what marks a job's processes and scratch.
// Both builds compile it; the effects are job_cleanup.cpp (Linux) and
// job_cleanup_portable.cpp.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/job_cleanup.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "sandbox/process/step_env.h"

namespace lw::host {

bool environHasJob(std::string_view environ, std::string_view job) {
  const std::string want = std::string(sandbox::kJobMarkerVariable) + "=" + std::string(job);
  std::size_t at = 0;
  while (at <= environ.size()) {
    std::size_t end = environ.find('\0', at);
    if (end == std::string_view::npos) end = environ.size();
    if (environ.substr(at, end - at) == want) return true;
    at = end + 1;
  }
  return false;
}

std::optional<unsigned long long> startTimeFromStat(std::string_view stat) {
  // "pid (comm) state ppid …": comm may contain ") ", so split at the last ')'.
  std::size_t close = stat.rfind(')');
  if (close == std::string_view::npos || close + 2 > stat.size()) return std::nullopt;
  std::istringstream in{std::string(stat.substr(close + 2))};
  std::string field;
  // Fields 3..21 precede the start time (field 22).
  for (int i = 3; i <= 21; ++i)
    if (!(in >> field)) return std::nullopt;
  unsigned long long start = 0;
  if (!(in >> start)) return std::nullopt;
  return start;
}

bool isSandboxScratchName(std::string_view name) {
  return name.rfind("lw-qualify-", 0) == 0 || name.rfind("lw-bwrap-probe-", 0) == 0 ||
         name.rfind(sandbox::gvisor::kScratchPrefix, 0) == 0;
}

ScratchOwner readScratchOwner(const std::string& dir) {
  ScratchOwner owner;
  std::ifstream in(std::filesystem::path(dir) / ".lw-owner");
  in >> owner.pid >> owner.start;
  std::getline(in >> std::ws, owner.job);
  return owner;
}

void removeScratchDir(const std::string& dir, CleanupReport& report) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (ec)
    report.problems.push_back("cannot remove " + dir + ": " + ec.message());
  else
    report.tempDirs.push_back(dir);
}

}  // namespace lw::host
