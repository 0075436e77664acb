// linux-landlock for real: a shell inside the sandbox tries what a hostile
// step would, and the test checks the kernel said no (and that honest work
// still runs). Runs as root and as an unprivileged user.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "integration/sandbox/host_processes.h"
#include "sandbox/landlock/landlock_abi.h"
#include "sandbox/landlock/landlock_backend.h"
#include "support/host_requirement.h"

using namespace lw::sandbox;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

struct Dirs {
  fs::path base, ws, out, outside, secret;
  Dirs() {
    char tmpl[] = "/tmp/lw-landlock-XXXXXX";
    base = mkdtemp(tmpl);
    ws = base / "ws";
    out = base / "out";
    outside = base / "outside";
    secret = base / "secret";
    for (const auto& d : {ws, out, outside, secret}) fs::create_directories(d);
    std::ofstream(ws / "file.txt") << "workspace\n";
    std::ofstream(secret / "key") << "s3cret\n";
    fs::create_directories(ws / ".github");
    std::ofstream(ws / ".github" / "workflow.yml") << "on: push\n";
  }
  ~Dirs() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
};

struct Run {
  int status = -1;
  std::string out, err;
};

landlock::LandlockBackend& backend() {
  static landlock::LandlockBackend b;
  return b;
}

bool available() { return backend().probe().available; }

StepSpec specFor(const Dirs& d, const std::string& script) {
  StepSpec s;
  s.argv = {"/bin/sh", "-c", script};
  s.workspace = d.ws;
  s.outDir = d.out;
  s.deniedReadPaths = {d.secret};
  s.protectedPaths = {d.ws / ".github"};
  s.env = {{"PATH", "/usr/bin:/bin"},
           {"WS", d.ws.string()},
           {"OUT", d.out.string()},
           {"OUTSIDE", d.outside.string()},
           {"SECRET", d.secret.string()}};
  return s;
}

Run run(const StepSpec& spec) {
  auto p = backend().launch(spec);
  if (!p.ok()) FAIL(p.error().message);
  process::ExitInfo info = (*p)->wait(std::chrono::steady_clock::now() + 30s);
  return Run{info.status(), (*p)->stdoutData().data, (*p)->stderrData().data};
}

Run sh(const Dirs& d, const std::string& script, lw::NetworkMode mode = lw::NetworkMode::None) {
  StepSpec s = specFor(d, script);
  s.network = mode;
  return run(s);
}

bool hasPython() { return access("/usr/bin/python3", X_OK) == 0; }

}  // namespace

TEST_CASE("landlock backend: honest work runs, output comes back [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  Run r = sh(d, "cat \"$WS/file.txt\"; echo done > \"$OUT/result\"; cat \"$OUT/result\"; ls /usr >/dev/null; exit 3");
  CHECK(r.status == 3);
  CHECK(r.out == "workspace\ndone\n");
  CHECK(r.err == "");
  CHECK(run(specFor(d, "exec /bin/true")).status == 0);
}

TEST_CASE("landlock backend: filesystem escapes are refused [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  fs::create_directory_symlink(d.outside, d.ws / "link-out");
  struct Case {
    const char* name;
    std::string script;
  };
  const std::string host = std::to_string(getpid());
  const Case cases[] = {
      {"write outside", "echo x > \"$OUTSIDE/f\""},
      {"write in the read-only workspace", "echo x > \"$WS/new\""},
      {"truncate a workspace file", "truncate -s 0 \"$WS/file.txt\""},
      {"remove a workspace file", "rm -f \"$WS/file.txt\""},
      {"write through a symlink", "echo x > \"$WS/link-out/f\""},
      {"symlink from the out dir", "ln -s \"$OUTSIDE\" \"$OUT/l\" && echo x > \"$OUT/l/f\""},
      {"write via /proc/self/root", "echo x > \"/proc/self/root$OUTSIDE/f\""},
      {"write via /proc/<host pid>/root", "echo x > \"/proc/" + host + "/root$OUTSIDE/f\""},
      {"read a denied path", "cat \"$SECRET/key\""},
      {"read via /proc/<host pid>/root", "cat \"/proc/" + host + "/root$SECRET/key\""},
      {"read another process's environ", "cat /proc/" + host + "/environ"},
      {"read /etc/shadow", "cat /etc/shadow"},
      {"list /root", "ls /root"},
      {"write the protected path", "echo x >> \"$WS/.github/workflow.yml\""},
      {"hardlink into the out dir", "ln \"$WS/file.txt\" \"$OUT/hard\""},
      {"mkdir in /tmp", "mkdir /tmp/lw-escape-$$"},
  };
  for (const Case& c : cases) {
    std::string name = c.name;
    CAPTURE(name);
    Run r = sh(d, c.script);
    CAPTURE(r.err);
    CHECK(r.status != 0);
    // The kernel said no — not a typo in the script or a missing tool.
    // In the private view a host pid is not there at all.
    const bool hostPidGone = c.script.find("/proc/" + host + "/") != std::string::npos &&
                             (r.err.find("No such file or directory") != std::string::npos ||
                              r.err.find("Directory nonexistent") != std::string::npos);
    CHECK((hostPidGone || r.err.find("Permission denied") != std::string::npos ||
           r.err.find("Operation not permitted") != std::string::npos ||
           r.err.find("Read-only file system") != std::string::npos ||      // the private view
           r.err.find("Invalid cross-device link") != std::string::npos));  // Landlock's EXDEV
    CHECK(r.out.find("s3cret") == std::string::npos);
  }
  CHECK(fs::is_empty(d.outside));
  std::ifstream f(d.ws / "file.txt");
  std::string content((std::istreambuf_iterator<char>(f)), {});
  CHECK(content == "workspace\n");
}

TEST_CASE("landlock backend: author step writes the workspace, protected path is not masked [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  StepSpec s = specFor(d, "echo y >> \"$WS/file.txt\" && mkdir \"$WS/sub\" && mv \"$WS/sub\" \"$WS/sub2\"");
  s.workspaceWritable = true;
  CHECK(run(s).status == 0);
  CHECK(fs::exists(d.ws / "sub2"));
  // Documented limitation: the probe says partial, negotiation refuses the
  // capability. This pins that the report is not lying.
  CHECK(backend().probe().capabilities.at(lw::Capability::ProtectedPathReadOnlyMask).support == Support::Partial);
}

TEST_CASE(
    "landlock backend: in the private view, metadata changes work inside the writable paths only, relative paths too "
    "[integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  LW_REQUIRE_HOST(backend().probe().capabilities.at(lw::Capability::ProcessTreeCleanup).support == Support::Enforced,
                  "no private view here: seccomp refuses metadata changes everywhere instead");
  Dirs d;
  fs::create_directories(d.ws / "src");
  StepSpec s = specFor(d,
                       "echo x > rel && chmod +x rel && touch -d 2001-01-01 rel && "
                       "chmod 0600 \"$OUT\" && cd .. && touch -d 2001-01-01 src && "
                       "{ touch -d 2001-01-01 file.txt; chmod 0777 \"$OUTSIDE\"; } 2>&1; true");
  s.workspaceWritable = false;
  s.writablePaths = {d.ws / "src"};
  s.workdir = d.ws / "src";
  Run r = run(s);
  CHECK(r.status == 0);
  CHECK(r.out.find("chmod: changing permissions") != std::string::npos);  // outside: refused
  CHECK(r.out.find("Read-only file system") != std::string::npos);
  CHECK((fs::status(d.ws / "src" / "rel").permissions() & fs::perms::owner_exec) != fs::perms::none);
  CHECK(fs::last_write_time(d.ws / "src" / "rel") < fs::file_time_type::clock::now() - 24h);
  CHECK((fs::status(d.out).permissions() & fs::perms::group_read) == fs::perms::none);
  CHECK((fs::status(d.outside).permissions() & fs::perms::others_write) == fs::perms::none);
  CHECK(fs::last_write_time(d.ws / "src") < fs::file_time_type::clock::now() - 24h);       // the tree's root is its own
  CHECK(fs::last_write_time(d.ws / "file.txt") > fs::file_time_type::clock::now() - 24h);  // beside it: read-only
}

TEST_CASE("landlock backend: the step's System V and POSIX queue IPC is its own, not the host's [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  Run r = sh(d, "readlink /proc/self/ns/ipc");
  REQUIRE(r.status == 0);
  CHECK(r.out.starts_with("ipc:["));
  CHECK(r.out != fs::read_symlink("/proc/self/ns/ipc").string() + "\n");
}

TEST_CASE("landlock backend: no capabilities, no-new-privileges, seccomp on, as root too [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  Run r = sh(d, "grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):' /proc/self/status");
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::string key, value;
  int seen = 0;
  while (lines >> key >> value) {
    CAPTURE(key);
    ++seen;
    if (key == "NoNewPrivs:")
      CHECK(value == "1");
    else if (key == "Seccomp:")
      CHECK(value == "2");
    else
      CHECK(value == "0000000000000000");
  }
  CHECK(seen == 7);
}

TEST_CASE("landlock backend: only the step's environment and no inherited descriptors [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  int leaked = open("/dev/null", O_RDONLY);  // not close-on-exec on purpose
  REQUIRE(leaked >= 3);
  Run r = sh(d, "env | sort; ls /proc/self/fd | sort -n | tr '\\n' ' '");
  close(leaked);
  CHECK(r.out.find("HOME=") == std::string::npos);
  CHECK(r.out.find("OUT=" + d.out.string()) != std::string::npos);
  CHECK(r.out.find("0 1 2 3 ") != std::string::npos);  // 3 is ls's own directory fd
  CHECK(r.out.find(" 4 ") == std::string::npos);
}

TEST_CASE("landlock backend: network mode none refuses every new socket [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  LW_REQUIRE_HOST(hasPython(), "/usr/bin/python3 is needed to open sockets");
  Dirs d;
  for (const char* family : {"AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK", "AF_PACKET"}) {
    CAPTURE(family);
    Run r = sh(
        d, std::string("/usr/bin/python3 -c 'import socket; socket.socket(socket.") + family + ", socket.SOCK_DGRAM)'");
    CHECK(r.status != 0);
  }
  Run pair = sh(d, "/usr/bin/python3 -c 'import socket; socket.socketpair()'");
  CHECK(pair.status == 0);
}

TEST_CASE("landlock backend: loopback-only reaches its own loopback, not the host's [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  LW_REQUIRE_HOST(backend().probe().networkModes.at(lw::NetworkMode::LoopbackOnly).support == Support::Enforced,
                  "loopback-only is not enforced here (no user namespaces)");
  LW_REQUIRE_HOST(hasPython(), "/usr/bin/python3 is needed to open sockets");
  Dirs d;
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(listen(listener, 4) == 0);
  socklen_t len = sizeof addr;
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const std::string port = std::to_string(ntohs(addr.sin_port));
  Run own = sh(d,
               "/usr/bin/python3 -c 'import socket\n"
               "s=socket.socket(); s.bind((\"127.0.0.1\",0)); s.listen()\n"
               "c=socket.create_connection(s.getsockname(), timeout=5); print(\"ok\")'",
               lw::NetworkMode::LoopbackOnly);
  CHECK(own.status == 0);
  CHECK(own.out == "ok\n");
  Run host =
      sh(d, "/usr/bin/python3 -c 'import socket; socket.create_connection((\"127.0.0.1\"," + port + "), timeout=3)'",
         lw::NetworkMode::LoopbackOnly);
  CHECK(host.status != 0);
  Run unix = sh(d, "/usr/bin/python3 -c 'import socket; socket.socket(socket.AF_UNIX)'", lw::NetworkMode::LoopbackOnly);
  CHECK(unix.status != 0);
  close(listener);
}

TEST_CASE("landlock backend: allow-outbound is refused, not weakened [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  StepSpec s = specFor(d, "true");
  s.network = lw::NetworkMode::AllowOutbound;
  auto p = backend().launch(s);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().code == lw::ErrorCode::SandboxCapabilityInsufficient);
}

TEST_CASE("landlock backend: signals and ptrace of host processes refused [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  const std::string host = std::to_string(getpid());
  CHECK(sh(d, "kill -0 " + host).status != 0);
  // pid 1 is the host's init, or in the private view the step itself.
  CHECK(sh(d, "[ \"$(cat /proc/1/comm)\" = sh ] || ! kill -0 1").status == 0);
  CHECK(sh(d, "kill -0 $$").status == 0);  // its own tree stays reachable
}

TEST_CASE("landlock backend: a setsid double-forked daemon is gone when the step returns [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  // Found by its argument: in a pid namespace $! is not the host's pid.
  const std::string marker = lw::test::uniqueSleepSeconds();
  Run r = sh(d, "setsid sh -c 'sleep " + marker + " &'; sleep 0.2; pgrep -c -x sleep");
  REQUIRE(r.status == 0);
  CHECK(r.out == "1\n");  // it ran
  CHECK(lw::test::hostPidsWithArgument(marker).empty());
}

TEST_CASE("landlock backend: a missing workspace is a launch error naming it [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  Dirs d;
  StepSpec s = specFor(d, "true");
  s.workspace = d.base / "missing";
  auto p = backend().launch(s);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(p.error().message.find("missing") != std::string::npos);
}

TEST_CASE("landlock backend: mount, nested user namespaces, ptrace and TIOCSTI refused [integration]") {
  LW_REQUIRE_HOST(available(), "linux-landlock unavailable: " + backend().probe().unavailableReason);
  LW_REQUIRE_HOST(hasPython(), "/usr/bin/python3 is needed for raw system calls");
  Dirs d;
  const std::string host = std::to_string(getpid());
  // Each prints the errno it got; the sandbox must answer EPERM (1), where
  // the unconfined call would succeed or fail differently (ENOTTY, ENOENT…).
  struct Case {
    const char* name;
    std::string code;
  };
  const Case cases[] = {
      {"unshare(CLONE_NEWUSER)", "libc.unshare(0x10000000)"},
      {"clone(CLONE_NEWUSER)", "libc.syscall(L(56), L(0x10000000 | 17), L(0), L(0), L(0), L(0))"},
      {"mount tmpfs", "libc.mount(b\"none\", os.environ[\"OUT\"].encode(), b\"tmpfs\", 0, None)"},
      {"remount / read-write", "libc.mount(None, b\"/\", None, 0x20 | 0x1000, None)"},
      {"ptrace attach to the orchestrator", "libc.ptrace(16, " + host + ", 0, 0)"},
      {"TIOCSTI", "libc.ioctl(0, 0x5412, ctypes.c_char_p(b\"x\"))"},
      {"TIOCSTI with high bits", "libc.syscall(L(16), L(0), L(0x5412 | (1 << 32)), ctypes.c_char_p(b\"x\"))"},
  };
  for (const Case& c : cases) {
    std::string name = c.name;
    CAPTURE(name);
    Run r = sh(d,
               "/usr/bin/python3 -c 'import ctypes, os\n"
               "libc = ctypes.CDLL(None, use_errno=True)\n"
               "L = ctypes.c_ulong\n"
               "rc = " +
                   c.code +
                   "\n"
                   "print(ctypes.get_errno() if rc == -1 else \"succeeded\")'");
    CAPTURE(r.err);
    CHECK(r.status == 0);
    CHECK(r.out == "1\n");
  }
}
