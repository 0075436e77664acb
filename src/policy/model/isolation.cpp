#include "policy/model/isolation.h"

namespace lw {

std::string_view isolationMeaning(Isolation level) {
  switch (level) {
    case Isolation::L1: return "local: an OS sandbox on the orchestrator's machine, or only the job's own VM";
    case Isolation::L2: return "container: its own root filesystem, from an image the host admin pinned";
    case Isolation::L3: return "remote: another kernel per step";
  }
  return "?";
}

std::string describeLevel(Isolation level) {
  return std::string(toString(level)) + " (" + std::string(isolationMeaning(level)) + ")";
}

std::string isolationMissing(Isolation level) {
  for (BackendId b : kAllBackends)
    if (static_cast<int>(isolationOf(b)) >= static_cast<int>(level)) return {};
  // Every level has a backend in this version (L3: linux-gvisor); whether it
  // runs on a given host is its probe's to say, at negotiation.
  return "no backend of this version gives " + std::string(toString(level));
}

}  // namespace lw
