// The docker backend against a real engine: the private dockerd that
// scripts/docker-test-env.sh starts (no bridge, no iptables) and its local
// busybox image. Without DOCKER_HOST and LOOPWRIGHT_TEST_DOCKER_IMAGE these
// tests are skipped with the reason (and fail under CI=true).
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/environment.h"
#include "sandbox/docker/container_process.h"
#include "sandbox/docker/docker_backend.h"
#include "sandbox/docker/endpoint.h"
#include "sandbox/docker/http_transport.h"
#include "support/host_requirement.h"

namespace fs = std::filesystem;
using namespace lw::sandbox;
using namespace lw::sandbox::docker;
using lw::Capability;
using lw::NetworkMode;
using namespace std::chrono_literals;

namespace {

struct DockerHost {
  bool ready = false;
  std::string reason;
  std::string socket;
  std::string image;
};

DockerHost dockerHost() {
  DockerHost h;
  const auto env = lw::Environment::fromProcess();
  const auto host = env.get("DOCKER_HOST");
  const auto image = env.get("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  if (!host || !image || image->empty()) {
    h.reason =
        "DOCKER_HOST and LOOPWRIGHT_TEST_DOCKER_IMAGE are unset: run "
        "scripts/docker-test-env.sh start, then eval \"$(scripts/docker-test-env.sh env)\"";
    return h;
  }
  auto socket = dockerSocketPath(env);
  if (!socket) {
    h.reason = socket.error().message;
    return h;
  }
  h.socket = *socket;
  h.image = *image;
  h.ready = true;
  return h;
}

// A workspace and out dir of their own under /tmp, removed afterwards.
struct Scratch {
  fs::path root;
  fs::path ws;
  fs::path out;
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "lw-docker-XXXXXX").string();
    root = ::mkdtemp(tmpl.data());
    ws = root / "ws";
    out = root / "out";
    fs::create_directories(ws / ".github");
    fs::create_directories(ws / "secrets");
    fs::create_directories(out);
    write(ws / "AGENTS.md", "rules\n");
    write(ws / "secrets" / "token", "s3cr3t\n");
    write(ws / "README", "hello\n");
    write(root / "outside", "host file\n");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  static void write(const fs::path& p, const std::string& s) { std::ofstream(p) << s; }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
};

StepSpec shellStep(const Scratch& s, const DockerHost& h, const std::string& script) {
  StepSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.workspace = s.ws;
  spec.outDir = s.out;
  spec.protectedPaths = {".github", "AGENTS.md"};
  spec.deniedReadPaths = {"secrets"};
  spec.env = {{"PATH", "/bin"}, {"LOOPWRIGHT_OUT", s.out.string()}};
  spec.image = h.image;
  return spec;
}

DockerConfig configFor(const DockerHost& h) {
  DockerConfig c;
  c.socketPath = h.socket;
  c.runLabel = "itest-" + std::to_string(::getpid());
  c.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  return c;
}

struct Ran {
  process::ExitInfo exit;
  std::string out;
  std::string err;
  std::vector<std::string> engineErrors;
};

Ran run(DockerBackend& backend, const StepSpec& spec, std::chrono::seconds limit = 60s) {
  auto launched = backend.launch(spec);
  REQUIRE_MESSAGE(launched.ok(), (launched.ok() ? "" : launched.error().message));
  auto& p = *launched.value();
  Ran r;
  r.exit = p.wait(std::chrono::steady_clock::now() + limit);
  r.out = p.stdoutData().data;
  r.err = p.stderrData().data;
  r.engineErrors = dynamic_cast<ContainerProcess&>(p).engineErrors();
  return r;
}

int containersOfRun(const DockerHost& h, const std::string& run) {
  EngineClient client(engineTransport(h.socket), 10s);
  auto ids = client.listLabelled(std::string(kRunLabel), run);
  REQUIRE(ids.ok());
  return static_cast<int>(ids->size());
}

// Whether a host process has exactly this command line (the daemonized
// leftover a step tried to leave behind).
bool hostProcessWithCmdline(const std::string& wanted) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmd = Scratch::read(entry.path() / "cmdline");
    for (char& c : cmd)
      if (c == '\0') c = ' ';
    if (cmd == wanted + " ") return true;
  }
  return false;
}

// A TCP server on the host's 127.0.0.1 that a step must not reach.
struct HostListener {
  int fd = -1;
  int port = 0;
  HostListener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), len) == 0 && ::listen(fd, 4) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
      port = ntohs(addr.sin_port);
  }
  ~HostListener() {
    if (fd >= 0) ::close(fd);
  }
  HostListener(const HostListener&) = delete;
  HostListener& operator=(const HostListener&) = delete;
};

}  // namespace

TEST_CASE("docker engine: the private test engine is probed as it is" * doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  DockerBackend backend(configFor(h));
  const ProbeReport& r = backend.probe();
  REQUIRE_MESSAGE(r.available, r.unavailableReason);
  CHECK(r.version.rfind("docker ", 0) == 0);
  for (Capability c : lw::kAllCapabilities) {
    CAPTURE(lw::toString(c));
    CHECK(r.capabilities.at(c).support == Support::Enforced);
  }
  CHECK(r.networkModes.at(NetworkMode::None).support == Support::Enforced);
  // The test engine runs with --bridge=none: outbound is honestly absent.
  CHECK(r.networkModes.at(NetworkMode::AllowOutbound).support == Support::Absent);
}

TEST_CASE("docker engine: a missing socket probes unavailable with the reason" * doctest::test_suite("docker")) {
  DockerConfig c;
  c.socketPath = "/nonexistent/loopwright/docker.sock";
  DockerBackend backend(c);
  const ProbeReport& r = backend.probe();
  CHECK(!r.available);
  CHECK(r.unavailableReason.find("/nonexistent/loopwright/docker.sock") != std::string::npos);
}

TEST_CASE("docker run: exit status, env, workdir and both streams come back, nothing is left" *
          doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerConfig config = configFor(h);
  DockerBackend backend(config);
  StepSpec spec = shellStep(s, h,
                            "echo out:$GREETING; pwd; cat README; echo err >&2; "
                            "echo done > $LOOPWRIGHT_OUT/findings.json; exit 7");
  spec.env["GREETING"] = "hi there";
  const Ran r = run(backend, spec);
  CHECK(r.exit.exitCode == 7);
  CHECK(!r.exit.timedOut);
  CHECK(r.out == "out:hi there\n" + s.ws.string() + "\nhello\n");
  CHECK(r.err == "err\n");
  CHECK(r.engineErrors.empty());
  CHECK(Scratch::read(s.out / "findings.json") == "done\n");
  CHECK(containersOfRun(h, config.runLabel) == 0);
}

// (That no other socket opens after it is the escape suite's: tests/escape.)
TEST_CASE("docker run: the container init connects the bridge at fd 3 before the step starts" *
          doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  // A bridge that answers one line, listening in the out dir as the pipeline's does.
  const fs::path sock = s.out / "bridge.sock";
  int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, sock.c_str(), sizeof addr.sun_path - 1);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 1) == 0);
  ::chmod(sock.c_str(), 0666);
  std::thread server([&] {
    int c = ::accept(listener, nullptr, nullptr);
    if (c < 0) return;
    const char hello[] = "bridge\n";
    (void)!::write(c, hello, sizeof hello - 1);
    ::close(c);
  });
  StepSpec spec = shellStep(s, h, "echo \"$LOOPWRIGHT_BRIDGE\"; head -n 1 <&3");
  spec.env["LOOPWRIGHT_BRIDGE"] = sock.string();
  const Ran r = run(backend, spec);
  server.join();
  ::close(listener);
  CHECK(r.exit.exitCode == 0);
  CHECK(r.out == "fd:3\nbridge\n");
}

TEST_CASE("docker run: a bridge the container init cannot reach means the step never starts" *
          doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  StepSpec spec = shellStep(s, h, "echo started > $LOOPWRIGHT_OUT/started");
  spec.env["LOOPWRIGHT_BRIDGE"] = (s.out / "no-bridge.sock").string();
  const Ran r = run(backend, spec);
  CHECK(r.exit.exitCode == 127);
  CHECK(r.err.find("loopwright-container-init: " + (s.out / "no-bridge.sock").string()) != std::string::npos);
  CHECK(!fs::exists(s.out / "started"));
}

TEST_CASE("docker run: output beyond the bound is counted, not kept" * doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  StepSpec spec = shellStep(s, h, "yes 0123456789 | head -c 200000");
  spec.maxOutputBytes = 1000;
  std::size_t live = 0;
  spec.onOutput = [&](int, const char*, std::size_t n) { live += n; };
  const Ran r = run(backend, spec);
  CHECK(r.exit.exitCode == 0);
  CHECK(r.out.size() == 1000);
  CHECK(live == 200000);
}

TEST_CASE("docker run: at the deadline the container is killed and removed" * doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerConfig config = configFor(h);
  DockerBackend backend(config);
  const auto start = std::chrono::steady_clock::now();
  const Ran r = run(backend, shellStep(s, h, "echo started; sleep 600"), 2s);
  CHECK(r.exit.timedOut);
  CHECK(r.exit.status() == 124);
  CHECK(r.out == "started\n");
  CHECK(std::chrono::steady_clock::now() - start < 30s);
  CHECK(containersOfRun(h, config.runLabel) == 0);
}

TEST_CASE("docker run: a daemonized descendant is gone when the step returns" * doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  const std::string marker = "sleep 7391" + std::to_string(::getpid() % 100);
  const Ran r = run(backend, shellStep(s, h,
                                       "setsid " + marker +
                                           " </dev/null >/dev/null 2>&1 & "
                                           "sleep 0.3; echo spawned"));
  CHECK(r.out == "spawned\n");
  CHECK(!hostProcessWithCmdline(marker));
}

TEST_CASE("docker run: a process dropped without wait (interrupted run) takes its container along" *
          doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerConfig config = configFor(h);
  DockerBackend backend(config);
  {
    auto launched = backend.launch(shellStep(s, h, "sleep 600"));
    REQUIRE(launched.ok());
    CHECK(containersOfRun(h, config.runLabel) == 1);
    std::thread killer([&] { launched.value()->kill(); });
    killer.join();
  }
  CHECK(containersOfRun(h, config.runLabel) == 0);
}

TEST_CASE("docker run: an image the engine does not have is refused, never pulled" * doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  StepSpec spec = shellStep(s, h, "true");
  spec.image = "registry.invalid/none@sha256:" + std::string(64, 'e');
  auto launched = backend.launch(spec);
  REQUIRE(!launched.ok());
  CHECK(launched.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(launched.error().hint.find("never pulls") != std::string::npos);
}

TEST_CASE("docker containment: writes, protected paths, denied reads, network and privileges" *
          doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  const std::string ws = s.ws.string();
  const HostListener listener;
  REQUIRE(listener.port > 0);
  fs::create_symlink("/etc/evil", s.ws / "to-etc");
  fs::create_symlink(s.root / "outside", s.ws / "to-outside");
  Scratch::write(s.root / "host.sock", "");  // stands for a host socket outside the view
  // Each probe prints "name:blocked" or "name:ESCAPED".
  const std::string script =
      "t() { n=$1; shift; if \"$@\" >/dev/null 2>&1; then echo \"$n:ESCAPED\"; else echo \"$n:blocked\"; fi; }\n"
      "t write-rootfs touch /etc/owned\n"
      "t read-outside-workspace cat " +
      s.root.string() +
      "/outside\n"
      "t write-readonly-workspace touch " +
      ws +
      "/new\n"
      "t read-denied-file cat " +
      ws +
      "/secrets/token\n"
      "t write-through-symlink sh -c 'echo x > " +
      ws +
      "/to-etc'\n"
      "t read-through-symlink cat " +
      ws +
      "/to-outside\n"
      "t host-socket-visible test -e " +
      s.root.string() +
      "/host.sock\n"
      "t list-denied-dir sh -c 'ls -A " +
      ws +
      "/secrets | grep -q .'\n"
      "t mount mount -t tmpfs none /tmp\n"
      "t nested-userns unshare -U true\n"
      "t capabilities-left sh -c '! grep -q \"^CapEff:[[:space:]]*0000000000000000$\" /proc/self/status'\n"
      "t new-privileges-allowed sh -c '! grep -q \"^NoNewPrivs:[[:space:]]*1$\" /proc/self/status'\n"
      "t network-interface sh -c 'ip -o link | grep -v \": lo:\" | grep -q .'\n"
      "t udp-out sh -c 'echo x | nc -u -w1 192.0.2.1 53'\n"
      "t tcp-out nc -w1 192.0.2.1 80\n"
      "t tcp-host-loopback sh -c 'echo hi | nc -w1 127.0.0.1 " +
      std::to_string(listener.port) +
      "'\n"
      "t see-host-processes sh -c 'test $(ls -d /proc/[0-9]* | wc -l) -gt 20'\n"
      // Last: lands in the container's private /tmp if anywhere; the host file is checked below.
      "echo x > " +
      s.root.string() + "/outside 2>/dev/null\n";
  const Ran r = run(backend, shellStep(s, h, script));
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.out.find("ESCAPED") == std::string::npos);
  CHECK(r.out.find("write-rootfs:blocked") != std::string::npos);
  CHECK(r.out.find("see-host-processes:blocked") != std::string::npos);
  CHECK(Scratch::read(s.root / "outside") == "host file\n");
  CHECK(!fs::exists(s.ws / "new"));
}

TEST_CASE("docker containment: an author cannot touch protected paths by any route" * doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  Scratch s;
  DockerBackend backend(configFor(h));
  const std::string ws = s.ws.string();
  const std::string script =
      "cd " + ws +
      "\n"
      "t() { n=$1; shift; if \"$@\" >/dev/null 2>&1; then echo \"$n:ESCAPED\"; else echo \"$n:blocked\"; fi; }\n"
      "echo written > src.txt && echo author-write:ok\n"
      "t protected-direct sh -c 'echo evil > AGENTS.md'\n"
      "t protected-dir-file sh -c 'echo evil > .github/evil.yml'\n"
      "t rename-protected-dir mv .github gh\n"
      "t hardlink-protected ln AGENTS.md agents-link\n"
      "t symlink-swap sh -c 'rm -f AGENTS.md && ln -s /tmp/x AGENTS.md'\n"
      "t rename-over-protected sh -c 'echo evil > a2 && mv a2 AGENTS.md'\n";
  StepSpec spec = shellStep(s, h, script);
  spec.workspaceWritable = true;
  const Ran r = run(backend, spec);
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.out.find("author-write:ok") != std::string::npos);
  CHECK(r.out.find("ESCAPED") == std::string::npos);
  CHECK(Scratch::read(s.ws / "AGENTS.md") == "rules\n");
  CHECK(!fs::is_symlink(s.ws / "AGENTS.md"));
  CHECK(fs::is_directory(s.ws / ".github"));
  CHECK(!fs::exists(s.ws / ".github" / "evil.yml"));
  CHECK(Scratch::read(s.ws / "src.txt") == "written\n");
}

TEST_CASE("docker run: an orchestrator killed without unwinding leaves no container behind" *
          doctest::test_suite("docker")) {
  const DockerHost h = dockerHost();
  LW_REQUIRE_HOST(h.ready, h.reason);
  for (int sig : {SIGKILL, SIGINT}) {
    CAPTURE(sig);
    Scratch s;
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      const int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
      ::execl(LOOPWRIGHT_BIN, LOOPWRIGHT_BIN, "sandbox", "exec", "--backend", "docker", "--image", h.image.c_str(),
              "--workspace", s.ws.c_str(), "--", "/bin/sleep", "600", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // loopwright labels its containers with its own pid when not in Actions.
    const std::string run = "local-" + std::to_string(child);
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (containersOfRun(h, run) == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(100ms);
    REQUIRE(containersOfRun(h, run) == 1);
    ::kill(child, sig);
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(WIFSIGNALED(status));
    deadline = std::chrono::steady_clock::now() + 30s;
    while (containersOfRun(h, run) != 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(100ms);
    CHECK(containersOfRun(h, run) == 0);
  }
}
