#include "sandbox/probe_canary.h"

namespace lw::sandbox {

std::string containmentCanaryLines(const std::string& scratch, const std::string& ws) {
  return "echo ok > '" + ws + "/written' 2>/dev/null && echo W1\n" +
         "(echo x > /usr/.lw-probe) 2>/dev/null || echo W2\n" + "(echo x > '" + ws +
         "/prot') 2>/dev/null || echo P1\n" + "(mv '" + ws + "/prot' '" + ws + "/moved') 2>/dev/null || echo P2\n" +
         "test -e '" + scratch + "/secret' || echo R1\n" + "grep -q secret '" + ws +
         "/denied' 2>/dev/null || echo R2\n" + "test \"$(grep -c : /proc/net/dev)\" = 1 && echo N1\n" +
         "test $$ -lt 10 && echo T1\n" + "grep -q '^Seccomp:.2' /proc/self/status && echo S1\n" +
         "grep -q '^CapEff:.0000000000000000' /proc/self/status && echo C1\n";
}

}  // namespace lw::sandbox
