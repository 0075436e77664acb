#include "sandbox/process/posix/cleanup_canary.h"

#include <thread>

#include "sandbox/process/posix/posix_launcher.h"

namespace lw::sandbox::process::posix {
namespace {

namespace fs = std::filesystem;

std::uintmax_t sizeOf(const fs::path& p) {
  std::error_code ec;
  const auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
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
  if (!p) {
    failure = "the cleanup canary could not start: " + p.error().message;
  } else {
    const auto exit = p.value()->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
    // The daemon appends a byte every 20 ms: a live one grows the file.
    const auto before = sizeOf(beat);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    if (exit.status() != 0)
      failure =
          "the cleanup canary failed (status " + std::to_string(exit.status()) + "): " + p.value()->stdoutData().data;
    else if (sizeOf(beat) > before)
      failure =
          "a setsid, double-forked daemon outlived its step: its short-lived middle process was not "
          "seen (no fork events here, only looks at the process table)";
  }
  // The canary's daemon ends itself once its directory is gone.
  fs::remove_all(scratch, ec);
  return failure;
}

}  // namespace lw::sandbox::process::posix
