#include "agents/reproduce/repro_shutout.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

extern char** environ;

namespace lw::agents::reproduce {

namespace {

// The environment block as the kernel shows it to other processes: on
// Linux and under gVisor, the bytes between the start and the end of the
// strings the process was started with, read from its memory.
bool environmentBlockIsBlank() {
  std::ifstream in("/proc/self/environ", std::ios::binary);
  if (!in) return false;
  const std::string block((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return std::all_of(block.begin(), block.end(), [](char c) { return c == '\0'; });
}

// Every string environ points to overwritten in place (the block's own and
// any set later), then environ emptied: getenv finds nothing afterwards.
void eraseEnvironment() {
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
    std::memset(*entry, 0, std::strlen(*entry));
  ::clearenv();
}

}  // namespace

Status shutOutTheReproduction(const std::string& bridge, std::ostream& log) {
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) log << "reproduce: prctl(PR_SET_DUMPABLE) failed\n";
  if (!bridge.empty() && !bridge.starts_with("fd:")) ::unlink(bridge.c_str());
  eraseEnvironment();
  if (!environmentBlockIsBlank())
    return makeError(ErrorCode::IoError,
                     "the agent's environment could not be erased (/proc/self/environ still shows part of it), so "
                     "the reproduction could have read it",
                     "report this to loopwright: the agent replaced a variable after it started");
  return Ok{};
}

}  // namespace lw::agents::reproduce
