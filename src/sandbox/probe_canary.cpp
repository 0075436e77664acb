#include "sandbox/probe_canary.h"

#include <fstream>
#include <sstream>

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

StepSpec canaryStep(const std::filesystem::path& scratch, const std::string& script) {
  const std::filesystem::path ws = scratch / "ws";
  std::filesystem::create_directories(ws);
  std::filesystem::create_directories(scratch / "out");
  std::ofstream(scratch / "secret") << "secret\n";
  std::ofstream(ws / "prot") << "protected\n";
  std::ofstream(ws / "denied") << "secret\n";
  StepSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.workspace = ws;
  spec.workspaceWritable = true;
  spec.protectedPaths = {ws / "prot"};
  spec.deniedReadPaths = {ws / "denied"};
  spec.outDir = scratch / "out";
  spec.network = NetworkMode::None;
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  return spec;
}

CanaryRun runCanary(Backend& backend, const StepSpec& spec, std::chrono::seconds timeout) {
  CanaryRun run;
  auto proc = backend.launch(spec);
  if (!proc) {
    run.launchError = proc.error().message;
    return run;
  }
  const process::ExitInfo info = (*proc)->wait(std::chrono::steady_clock::now() + timeout);
  run.status = info.status();
  run.ran = run.status == 0 && !info.launchFailure;
  if (info.launchFailure) run.launchError = info.launchFailure->message;
  if (!run.ran) {
    run.stderrText = (*proc)->stderrData().data;
    return run;
  }
  std::istringstream out((*proc)->stdoutData().data);
  for (std::string t; out >> t;) run.tokens.insert(t);
  return run;
}

}  // namespace lw::sandbox
