#include "sandbox/egress_relay_argv.h"

namespace lw::sandbox {

std::vector<std::string> behindEgressRelay(const std::string& init, const std::filesystem::path& socket,
                                           const std::vector<std::string>& argv) {
  std::vector<std::string> out = {init, "--egress-relay", socket.string(), "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

}  // namespace lw::sandbox
