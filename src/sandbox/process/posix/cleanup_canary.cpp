#include "sandbox/process/posix/cleanup_canary.h"

#include <fstream>
#include <thread>

#include "sandbox/process/posix/posix_launcher.h"
#include "sandbox/process/posix/process_table.h"

namespace lw::sandbox::process::posix {
namespace {

namespace fs = std::filesystem;

std::uintmax_t sizeOf(const fs::path& p) {
  std::error_code ec;
  const auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
}

// The daemon's pid, the first line of its beat file; 0 when there is none.
pid_t daemonPid(const fs::path& beat) {
  std::ifstream in(beat);
  pid_t pid = 0;
  return in >> pid ? pid : 0;
}

// Alive and not a zombie (a killed daemon stays one until init reaps it).
bool running(pid_t pid) {
  for (const ProcessEntry& e : readProcessTable())
    if (e.pid == pid) return !e.zombie;
  return false;
}

std::optional<std::string> observe(RunningProcess& step, const fs::path& beat) {
  const auto exit = step.wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  if (exit.status() != 0)
    return "the cleanup canary failed (status " + std::to_string(exit.status()) + "): " + step.stdoutData().data;
  const pid_t daemon = daemonPid(beat);
  if (daemon <= 0) return std::string("the cleanup canary's daemon never said its pid");
  const bool alive = running(daemon);
  // The daemon appends a byte every 20 ms: a live one grows the file.
  const auto before = sizeOf(beat);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  if (alive || sizeOf(beat) > before)
    return "a daemon outlived its step (pid " + std::to_string(daemon) +
           "): its middle process called setsid, forked and exited at once, and the daemon left that "
           "session too and ran loopwright anew";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> daemonSurvivesCleanup(const fs::path& loopwright, const fs::path& scratch) {
  std::error_code ec;
  fs::create_directories(scratch, ec);
  const fs::path beat = scratch / "beat";
  SpawnRequest req;
  req.argv = {loopwright.string(), "qualify", "--canary", "daemon", "--", beat.string()};
  req.env = {{"PATH", "/usr/bin:/bin"}};
  std::optional<std::string> failure;
  auto p = spawnPosix(req);
  if (!p)
    failure = "the cleanup canary could not start: " + p.error().message;
  else
    failure = observe(*p.value(), beat);
  // The canary's daemon ends itself once its directory is gone.
  fs::remove_all(scratch, ec);
  return failure;
}

}  // namespace lw::sandbox::process::posix
