// Finding a step's processes from the host. A step in a pid namespace knows
// only its own pids, so it marks a process with an argument (`sleep 300.<n>`)
// and the test looks that up in the host's /proc.
#pragma once

#include <sys/types.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lw::test {

// A marker argument no other process has: `sleep` takes it as seconds.
inline std::string uniqueSleepSeconds() {
  static int n = 0;
  return "300." + std::to_string(::getpid()) + std::to_string(++n);
}

// Host pids whose command line holds `argument` as one argument.
inline std::vector<pid_t> hostPidsWithArgument(const std::string& argument) {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline");
    std::stringstream text;
    text << in.rdbuf();
    std::string cmdline = text.str(), arg;
    std::istringstream args(cmdline);
    while (std::getline(args, arg, '\0'))
      if (arg == argument) pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return pids;
}

}  // namespace lw::test
