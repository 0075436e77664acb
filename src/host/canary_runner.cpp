#include "host/canary_runner.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/hex.h"
#include "host/canary_plan.h"
#include "host/canary_program.h"
#include "host/job_cleanup.h"
#include "policy/model/effective_policy.h"
#include "sandbox/process/step_env.h"

namespace lw::host {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A TCP listener on every address, accepting nothing: a connect that
// reaches it completes in the kernel's backlog, which is all a canary needs.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t len = sizeof a;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 64) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return;
    port = ntohs(a.sin_port);
  }
  ~Listener() {
    if (fd >= 0) ::close(fd);
  }
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uintmax_t sizeOf(const fs::path& p) {
  std::error_code ec;
  auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
}

std::string firstLine(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line;
}

std::string randomToken() {
  std::ifstream in("/dev/urandom", std::ios::binary);
  unsigned char b[12] = {};
  in.read(reinterpret_cast<char*>(b), sizeof b);
  return "lw-canary-secret-" + hexBytes(std::string_view(reinterpret_cast<const char*>(b), sizeof b));
}

// Hard link when on the same file system, else a copy (the binary must be
// inside the workspace: it is the only host tree every backend shows).
bool placeBinary(const std::string& from, const fs::path& to) {
  std::error_code ec;
  fs::path real = fs::weakly_canonical(from, ec);
  if (ec) real = from;
  if (::link(real.c_str(), to.c_str()) != 0) {
    fs::copy_file(real, to, fs::copy_options::overwrite_existing, ec);
    if (ec) return false;
  }
  ::chmod(to.c_str(), 0755);
  return true;
}

// A fresh, known state for every canary.
void resetScratch(const CanaryLayout& layout) {
  const fs::path w = fs::path(layout.ws) / "w";
  std::error_code ec;
  fs::remove(w / "prot", ec);
  std::ofstream(w / "prot") << "protected\n";
  fs::remove(w / "beat", ec);
  fs::remove(w / "prot-swap", ec);
  fs::remove(fs::path(layout.root) / "outside" / "written", ec);
}

sandbox::StepSpec canarySpec(const CanaryHost& host, const CanaryLayout& layout, const CanaryCase& c, bool shell) {
  const fs::path ws = layout.ws;
  const fs::path w = ws / "w";
  sandbox::StepSpec spec;
  spec.argv = canaryArgv(c, layout, shell);
  spec.workspace = ws;
  if (c.writable) spec.writablePaths.push_back(w);
  spec.outDir = fs::path(layout.root) / "out";
  spec.network = c.network;
  spec.image = host.image;
  spec.maxOutputBytes = 64 * 1024;
  // The production shape: built-in protected and denied paths, the step's
  // allow-listed environment.
  for (std::string_view p : kBuiltinProtectedPaths) spec.protectedPaths.push_back(ws / std::string(p));
  if (c.protectProt) spec.protectedPaths.push_back(w / "prot");
  spec.deniedReadPaths.push_back(ws / "denied");
  if (auto home = host.env.get("HOME"); home && !home->empty() && (*home)[0] == '/')
    for (std::string_view d : kBuiltinDeniedReadPaths)
      spec.deniedReadPaths.push_back(fs::path(*home) / std::string(d.substr(2)));
  spec.env = sandbox::stepEnvironment(host.env, {{"LOOPWRIGHT_OUT", spec.outDir.string()}});
  return spec;
}

// A backend built on user namespaces fails in recognisable ways where they
// are blocked: the first such failure is diagnosed once.
void diagnoseFailure(const sandbox::Backend& backend, const std::string& message, BackendQualification& q) {
  if (!backend.traits().usesUserNamespaces || q.userns) return;
  UsernsDiagnosis d = diagnoseUserns(message, readUsernsSysctls());
  if (d.blocked) q.userns = d;
}

// The host side: what the sandbox said is checked where it matters.
void checkHostSide(const CanaryLayout& layout, const CanaryCase& c, CanaryRecord& rec) {
  const fs::path w = fs::path(layout.ws) / "w";
  std::error_code ec;
  if (rec.ran && c.hostCheck == HostCheck::OutsideFileAbsent &&
      fs::exists(fs::path(layout.root) / "outside" / "written", ec)) {
    rec.held = false;
    rec.evidence += "; the file appeared on the host";
  }
  if (rec.ran && c.hostCheck == HostCheck::ProtectedUnchanged && readAll(w / "prot") != "protected\n") {
    rec.held = false;
    rec.evidence += "; the protected file changed on the host";
  }
  if (c.hostCheck == HostCheck::DaemonGone && rec.ran) {
    const std::uintmax_t before = sizeOf(w / "beat");
    std::this_thread::sleep_for(120ms);  // the daemon beats every 20–50 ms
    const std::uintmax_t after = sizeOf(w / "beat");
    if (before == 0) {
      rec.ran = false;
      rec.evidence += "; but no heartbeat reached the host";
    } else {
      rec.held = before == after;
      rec.evidence = rec.held ? "the daemon was gone when the step returned" : "ESCAPED: the daemon outlived the step";
    }
  }
}

void runOne(sandbox::Backend& backend, const CanaryHost& host, const CanaryLayout& layout, const CanaryCase& c,
            bool shell, BackendQualification& q) {
  resetScratch(layout);
  CanaryRecord rec;
  rec.target = c.target;
  rec.attempt = c.attempt;
  rec.expectBlocked = c.expectBlocked;
  rec.failureCost = c.failureCost;
  auto proc = backend.launch(canarySpec(host, layout, c, shell));
  if (!proc) {
    rec.evidence = "launch refused: " + proc.error().message;
    diagnoseFailure(backend, proc.error().message, q);
    q.canaries.push_back(rec);
    return;
  }
  sandbox::process::ExitInfo info = (*proc)->wait(std::chrono::steady_clock::now() + host.deadline);
  const std::string out = firstLine((*proc)->stdoutData().data);
  const std::string err = firstLine((*proc)->stderrData().data);
  const int status = info.status();
  if (status == kCanaryBlocked || status == kCanaryEscaped) {
    rec.ran = true;
    rec.held = status == kCanaryBlocked;
    rec.evidence = out.empty() ? "exit status " + std::to_string(status) : out;
  } else {
    rec.evidence = (out.empty() ? err : out) + " (exit status " + std::to_string(status) +
                   (info.timedOut ? ", timed out" : "") + ")";
    diagnoseFailure(backend, (*proc)->stderrData().data, q);
  }
  checkHostSide(layout, c, rec);
  q.canaries.push_back(rec);
}

}  // namespace

std::optional<std::string> outboundAddress() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return std::nullopt;
  std::optional<std::string> found;
  for (ifaddrs* i = list; i != nullptr && !found; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
    char buf[INET_ADDRSTRLEN] = {};
    auto* a = reinterpret_cast<sockaddr_in*>(i->ifa_addr);
    if (::inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf) != nullptr) found = buf;
  }
  ::freeifaddrs(list);
  return found;
}

void runCanaries(sandbox::Backend& backend, const CanaryHost& host, BackendQualification& q) {
  const sandbox::BackendTraits traits = backend.traits();
  const bool shell = traits.canariesThroughShell;
  if (traits.needsImage && !host.image) {
    CanaryRecord rec;
    rec.target = "all";
    rec.attempt = "launch a container";
    rec.evidence = "no pinned image to run canaries in: pass --image or pin a runtimeProfile";
    q.canaries.push_back(rec);
    return;
  }
  std::string tmpl = host.tempRoot + "/lw-qualify-XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) {
    q.canaries.push_back({"all", "create a scratch directory in " + host.tempRoot, true, false, false,
                          sandbox::Support::Absent, "mkdtemp failed"});
    return;
  }
  const fs::path root = tmpl;
  ::chmod(root.c_str(), 0755);
  Listener listener;
  CanaryLayout layout;
  layout.root = root.string();
  layout.ws = (root / "ws").string();
  layout.secret = randomToken();
  layout.binary = (root / "ws" / "lw-canary").string();
  layout.hostPort = listener.port;
  layout.outboundIp = outboundAddress();
  layout.hostPid = static_cast<int>(::getpid());
  std::error_code ec;
  fs::create_directories(root / "ws" / "w", ec);
  fs::create_directories(root / "out", ec);
  fs::create_directories(root / "outside", ec);
  std::ofstream(root / ".lw-owner") << scratchOwnerLine(sandbox::jobMarker(host.env).value_or(""));
  std::ofstream(root / "secret") << layout.secret << "\n";
  std::ofstream(root / "ws" / "denied") << layout.secret << "\n";
  if (!shell && !placeBinary(host.binary, layout.binary)) {
    q.canaries.push_back({"all", "place the canary program in the workspace", true, false, false,
                          sandbox::Support::Absent, "cannot copy " + host.binary});
  } else if (listener.port == 0) {
    q.canaries.push_back(
        {"all", "listen on a host TCP port", true, false, false, sandbox::Support::Absent, "cannot listen"});
  } else {
    for (const CanaryCase& c : planCanaries(q.claimed, layout, shell)) runOne(backend, host, layout, c, shell, q);
  }
  fs::remove_all(root, ec);
}

}  // namespace lw::host
