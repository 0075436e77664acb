// job_cleanup.h in the portable build: no /proc to find a job's processes
// by their environment and no pidfd to kill them safely, so only the
// sandbox scratch is cleaned up, and the report says what was not looked for.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "host/job_cleanup.h"
#include "host/k8s_pod_setup.h"

namespace lw::host {
namespace {

namespace fs = std::filesystem;

bool ownerAlive(int pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

void removeScratch(const CleanupOptions& o, CleanupReport& report) {
  for (const std::string& root : o.tempRoots) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(root, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("lw-qualify-", 0) != 0) continue;
      struct stat st {};
      if (::lstat(e.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
      const ScratchOwner owner = readScratchOwner(e.path().string());
      if (owner.job != o.job && ownerAlive(owner.pid)) continue;
      removeScratchDir(e.path().string(), report);
    }
  }
}

}  // namespace

// The start time is Linux's (/proc): here 0, and the owner is judged by pid.
std::string scratchOwnerLine(const std::string& job) { return std::to_string(::getpid()) + " 0 " + job + "\n"; }

CleanupReport cleanUpJob(const Environment&, const CleanupOptions& o) {
  CleanupReport report;
  if (o.job.empty()) {
    report.problems.push_back("no job to clean up (empty LOOPWRIGHT_JOB)");
    return report;
  }
  report.problems.push_back(
      "processes marked with the job were not looked for: the portable build cannot read other processes' "
      "environments (each step's own tree is cleaned up when it ends)");
  removeScratch(o, report);
  if (auto pods = sweepK8sPods(o.kubernetes, o.job); !pods)
    report.problems.push_back("k8s-pod: " + pods.error().message);
  else
    for (const std::string& name : *pods) report.pods.push_back(o.kubernetes->ns + "/" + name);
  return report;
}

}  // namespace lw::host
