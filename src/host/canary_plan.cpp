#include "host/canary_plan.h"

namespace lw::host {
namespace {

using sandbox::Support;

bool claimed(const sandbox::ProbeReport& r, Capability c) {
  auto it = r.capabilities.find(c);
  return it != r.capabilities.end() && it->second.support != Support::Absent;
}

bool claimed(const sandbox::ProbeReport& r, NetworkMode m) {
  auto it = r.networkModes.find(m);
  return it != r.networkModes.end() && it->second.support != Support::Absent;
}

// Single-quoted for /bin/sh.
std::string q(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shellFor(const CanaryCase& c) {
  const auto& a = c.args;
  const std::string esc = "echo \"ESCAPED: ";
  if (c.name == "read") {
    std::string paths;
    for (std::size_t i = 1; i < a.size(); ++i) paths += " " + q(a[i]);
    return "for p in" + paths + "; do if cat \"$p\" 2>/dev/null | grep -q " + q(a[0]) + "; then " + esc +
           "read $p\"; exit 1; fi; done; echo 'blocked: reading the denied paths'";
  }
  if (c.name == "write-outside")
    return "if (echo canary > " + q(a[0]) + ") 2>/dev/null; then " + esc + "wrote " + a[0] +
           "\"; exit 1; fi; (echo canary > " + q(a[1]) +
           ") 2>/dev/null || { echo 'setup: the workspace is not writable either'; exit 2; }; "
           "echo 'blocked: write " +
           a[0] + "'";
  if (c.name == "write-protected")
    return "if (echo x > " + q(a[0]) + ") 2>/dev/null; then " + esc + "truncated " + a[0] +
           "\"; exit 1; fi; (echo x > " + q(a[1]) +
           ") 2>/dev/null || { echo 'setup: the workspace is not "
           "writable'; exit 2; }; if mv -f " +
           q(a[1]) + " " + q(a[0]) + " 2>/dev/null; then " + esc + "renamed a file over " + a[0] +
           "\"; exit 1; fi; if rm -f " + q(a[0]) + " 2>/dev/null && [ ! -e " + q(a[0]) + " ]; then " + esc +
           "removed " + a[0] +
           "\"; exit 1; fi; echo 'blocked: write, rename "
           "over and remove " +
           a[0] + "'";
  if (c.name == "connect" || c.name == "connect-ok") {
    std::string pre = "command -v nc >/dev/null 2>&1 || { echo 'setup: the image has no nc'; exit 2; }; ";
    std::string nc = "nc -w 1 " + q(a[0]) + " " + q(a[1]) + " </dev/null >/dev/null 2>&1";
    if (c.name == "connect")
      return pre + "if " + nc + "; then " + esc + "connected to " + a[0] + ":" + a[1] +
             "\"; exit 1; fi; echo 'blocked: connect " + a[0] + ":" + a[1] + "'";
    return pre + "if " + nc + "; then echo 'connected'; exit 0; fi; echo 'setup: connect " + a[0] + ":" + a[1] +
           " failed'; exit 2";
  }
  if (c.name == "daemon")
    return "setsid sh -c 'while :; do echo . >> \"$0\"; sleep 0.05; done' " + q(a[0]) +
           " </dev/null >/dev/null 2>&1 & i=0; while [ ! -s " + q(a[0]) +
           " ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; [ -s " + q(a[0]) +
           " ] && { echo 'daemon started'; exit 0; }; echo 'setup: the daemon never wrote'; exit 2";
  if (c.name == "metadata")
    return "m=$(stat -c %a " + q(a[0]) + ") || { echo 'setup: no stat'; exit 2; }; if chmod \"$m\" " + q(a[0]) +
           " 2>/dev/null; then " + esc + "chmod " + a[0] +
           "\"; exit 1; fi; "
           "echo 'blocked: chmod " +
           a[0] + "'";
  if (c.name == "host-process")
    return "if grep -q qualify /proc/" + q(a[0]) + "/cmdline 2>/dev/null; then " + esc +
           "read the command line of pid " + a[0] + "\"; exit 1; fi; echo 'blocked: host process " + a[0] +
           " out of sight'";
  if (c.name == "seccomp")
    return "if grep -q '^Seccomp:[[:space:]]*2' /proc/self/status; then echo 'blocked: a seccomp filter "
           "is installed'; exit 0; fi; " +
           esc + "no seccomp filter installed\"; exit 1";
  return "echo 'setup: no shell form of " + c.name + "'; exit 2";
}

}  // namespace

namespace {

void addFilesystemCanaries(const sandbox::ProbeReport& r, const CanaryLayout& l, std::vector<CanaryCase>& out) {
  const std::string& ws = l.ws;
  if (claimed(r, Capability::FilesystemReadContainment)) {
    out.push_back({"filesystemReadContainment",
                   "read a denied path and a file outside the view",
                   "read",
                   {l.secret, l.root + "/secret", ws + "/denied"}});
  }
  if (claimed(r, Capability::FilesystemWriteContainment)) {
    CanaryCase c{"filesystemWriteContainment",
                 "write outside the workspace",
                 "write-outside",
                 {l.root + "/outside/written", ws + "/w/inside"}};
    c.writable = true;
    c.hostCheck = HostCheck::OutsideFileAbsent;
    out.push_back(c);
    // Non-destructive: the mode it already has; a refusal is what counts.
    CanaryCase meta{
        "filesystemWriteContainment", "chmod and chown the read-only workspace (to what they are)", "metadata", {ws}};
    meta.writable = true;
    out.push_back(meta);
  }
  if (claimed(r, Capability::ProtectedPathReadOnlyMask)) {
    CanaryCase c{"protectedPathReadOnlyMask",
                 "write, replace and remove a protected path",
                 "write-protected",
                 {ws + "/w/prot", ws + "/w/prot-swap"}};
    c.writable = true;
    c.protectProt = true;
    c.hostCheck = HostCheck::ProtectedUnchanged;
    out.push_back(c);
  }
}

void addProcessCanaries(const sandbox::ProbeReport& r, const CanaryLayout& l, std::vector<CanaryCase>& out) {
  if (claimed(r, Capability::ProcessTreeCleanup)) {
    CanaryCase c{"processTreeCleanup", "leave a setsid double-forked daemon behind", "daemon", {l.ws + "/w/beat"}};
    c.writable = true;
    c.hostCheck = HostCheck::DaemonGone;
    out.push_back(c);
  }
  // A backend that contains nothing (direct-dedicated: a dedicated machine,
  // no other tenant) claims only its own tree's cleanup, not other processes.
  if (claimed(r, Capability::ProcessTreeCleanup) && claimed(r, Capability::FilesystemReadContainment) &&
      l.hostPid > 0) {
    out.push_back(
        {"processTreeCleanup",
         "see the qualifying process (pid " + std::to_string(l.hostPid) + "), read its command line and its limits",
         "host-process",
         {std::to_string(l.hostPid)}});
  }
  if (claimed(r, Capability::SyscallFiltering))
    out.push_back({"syscallFiltering", "call keyctl(2), refused by the filter", "seccomp", {}});
}

// Per mode, the host's loopback must stay unreachable, outbound must be
// refused except in allow-outbound, where it must work.
void addNetworkCanaries(const sandbox::ProbeReport& r, const CanaryLayout& l, bool shell,
                        std::vector<CanaryCase>& out) {
  const std::string port = std::to_string(l.hostPort);
  for (NetworkMode m : kAllNetworkModes) {
    const bool wanted = claimed(r, m) || (m == NetworkMode::None && claimed(r, Capability::NetworkIsolation));
    if (!wanted) continue;
    const std::string target = "network " + std::string(toString(m));
    CanaryCase host{target, "connect to a service on the host's 127.0.0.1", "connect", {"127.0.0.1", port}};
    host.network = m;
    if (m == NetworkMode::AllowOutbound) host.failureCost = sandbox::Support::Partial;
    out.push_back(host);
    if (l.outboundIp) {
      CanaryCase outCase{target,
                         "connect out (to " + *l.outboundIp + ", standing in for the internet)",
                         m == NetworkMode::AllowOutbound ? "connect-ok" : "connect",
                         {*l.outboundIp, port}};
      outCase.network = m;
      outCase.expectBlocked = m != NetworkMode::AllowOutbound;
      out.push_back(outCase);
    }
    if (m == NetworkMode::LoopbackOnly && !shell) {
      CanaryCase own{target, "a round trip on the sandbox's own loopback", "loopback", {}};
      own.network = m;
      own.expectBlocked = false;
      out.push_back(own);
    }
  }
}

}  // namespace

std::vector<CanaryCase> planCanaries(const sandbox::ProbeReport& r, const CanaryLayout& l, bool shell) {
  std::vector<CanaryCase> out;
  addFilesystemCanaries(r, l, out);
  addProcessCanaries(r, l, out);
  addNetworkCanaries(r, l, shell, out);
  return out;
}

std::vector<std::string> canaryArgv(const CanaryCase& c, const CanaryLayout& l, bool shell) {
  if (shell) return {"/bin/sh", "-c", shellFor(c)};
  std::vector<std::string> argv = {l.binary, "qualify", "--canary", c.name, "--"};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  return argv;
}

}  // namespace lw::host
