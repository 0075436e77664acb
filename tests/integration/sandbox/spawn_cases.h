// Helpers the two process-start tests share: spawn() (supervised) and
// spawnSelfCleaningLauncher() keep the same contract for the step.
#pragma once

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "sandbox/process/spawn.h"

namespace lw::test {

inline const std::map<std::string, std::string> kSpawnEnv = {{"PATH", "/usr/bin:/bin"}};

inline sandbox::process::SpawnRequest shell(const std::string& script) {
  sandbox::process::SpawnRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.env = kSpawnEnv;
  return r;
}

// Starts `r` with `start`, waits up to 20 s, and hands back stdout.
template <class Start>
sandbox::process::ExitInfo runToEnd(Start start, const sandbox::process::SpawnRequest& r, std::string* out = nullptr) {
  auto p = start(r);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  auto info = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(20));
  if (out != nullptr) *out = (*p)->stdoutData().data;
  return info;
}

inline bool alive(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

}  // namespace lw::test
