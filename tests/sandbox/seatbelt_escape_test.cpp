// The Seatbelt escape tests: the profile the planner writes, applied by the
// real /usr/bin/sandbox-exec to ordinary programs that try to leave it. Only
// macOS has Seatbelt, so the cases exist only there (the macos job of
// .github/workflows/ci.yml runs them with the portable tests).
#include <doctest/doctest.h>

#if defined(__APPLE__)

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/environment.h"
#include "sandbox/process/posix/process_table.h"
#include "sandbox/seatbelt/sbpl_profile.h"
#include "sandbox/seatbelt/seatbelt_backend.h"

using namespace lw::sandbox;
using namespace lw::sandbox::seatbelt;
namespace fs = std::filesystem;

namespace {

// A step's trees under a fresh directory: the workspace (with a file, a
// protected .github and a denied secrets file), its out dir, and a file
// beside them that no rule lets the step read.
struct Trees {
  fs::path root, workspace, out, outside;

  Trees() {
    root = fs::weakly_canonical(fs::temp_directory_path()) / ("lw-seatbelt-escape-" + std::to_string(::getpid()));
    fs::remove_all(root);
    workspace = root / "ws";
    out = root / "out";
    outside = root / "outside.txt";
    fs::create_directories(workspace / ".github");
    fs::create_directories(out);
    std::ofstream(workspace / "README.md") << "readable\n";
    std::ofstream(workspace / "secrets") << "denied\n";
    std::ofstream(workspace / ".github" / "workflow.yml") << "protected\n";
    std::ofstream(outside) << "outside\n";
  }
  ~Trees() { fs::remove_all(root); }

  StepSpec spec(bool workspaceWritable) const {
    StepSpec s;
    s.argv = {"/bin/sh"};
    s.workspace = workspace;
    s.workspaceWritable = workspaceWritable;
    s.outDir = out;
    s.protectedPaths = {".github"};
    s.deniedReadPaths = {"secrets"};
    return s;
  }
};

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The exit status of `command` (a shell command line) under the profile
// planned for `spec`, as the backend would apply it.
int runUnder(const Trees& t, const StepSpec& spec, const std::string& command) {
  auto profile = sbplProfile(SbplInput{canonicalSpec(spec)});
  REQUIRE(profile.ok());
  const fs::path file = t.root / "profile.sb";  // read by sandbox-exec before it applies the profile
  std::ofstream(file) << *profile;
  const std::string line = std::string(kSandboxExec) + " -f " + quoted(file.string()) + " /bin/sh -c " +
                           quoted(command) + " >/dev/null 2>&1";
  const int status = std::system(line.c_str());
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("seatbelt escape: a reviewer reads its workspace and writes only its out dir [escape]") {
  Trees t;
  const StepSpec reviewer = t.spec(false);
  CHECK(runUnder(t, reviewer, "/bin/cat \"" + (t.workspace / "README.md").string() + "\"") == 0);
  CHECK(runUnder(t, reviewer, "/usr/bin/touch \"" + (t.out / "findings.json").string() + "\"") == 0);
  CHECK(fs::exists(t.out / "findings.json"));
  CHECK(runUnder(t, reviewer, "/usr/bin/touch \"" + (t.workspace / "planted").string() + "\"") != 0);
  CHECK(!fs::exists(t.workspace / "planted"));
}

TEST_CASE("seatbelt escape: nothing outside the step's trees, and no denied path, can be read [escape]") {
  Trees t;
  const StepSpec reviewer = t.spec(false);
  CHECK(runUnder(t, reviewer, "/bin/cat \"" + t.outside.string() + "\"") != 0);
  CHECK(runUnder(t, reviewer, "/bin/cat \"" + (t.workspace / "secrets").string() + "\"") != 0);
}

TEST_CASE("seatbelt escape: an author writes its workspace but not a protected path, nor renames it away [escape]") {
  Trees t;
  const StepSpec author = t.spec(true);
  CHECK(runUnder(t, author, "/usr/bin/touch \"" + (t.workspace / "change.txt").string() + "\"") == 0);
  CHECK(fs::exists(t.workspace / "change.txt"));
  const std::string workflow = (t.workspace / ".github" / "workflow.yml").string();
  CHECK(runUnder(t, author, "echo evil > \"" + workflow + "\"") != 0);
  CHECK(runUnder(t, author,
                 "/bin/mv \"" + (t.workspace / ".github").string() + "\" \"" + (t.workspace / "moved").string() +
                     "\"") != 0);
  CHECK(fs::exists(workflow));
  std::ifstream in(workflow);
  std::string text;
  std::getline(in, text);
  CHECK(text == "protected");
}

// A TCP listener on the host's 127.0.0.1 that a step must not reach.
struct HostListener {
  int fd = -1;
  int port = 0;
  HostListener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), len) == 0 && ::listen(fd, 8) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port = ntohs(a.sin_port);
  }
  ~HostListener() {
    if (fd >= 0) ::close(fd);
  }
};

TEST_CASE("seatbelt escape: with networkMode none a step cannot connect to the host's loopback [escape]") {
  Trees t;
  HostListener host;
  REQUIRE(host.port > 0);
  const std::string connect = "/usr/bin/nc -z -G 2 127.0.0.1 " + std::to_string(host.port);
  // The control: outside the profile the same connection is made.
  CHECK(std::system((connect + " >/dev/null 2>&1").c_str()) == 0);
  StepSpec reviewer = t.spec(false);
  reviewer.network = lw::NetworkMode::None;
  CHECK(runUnder(t, reviewer, connect) != 0);
}

TEST_CASE("seatbelt escape: a daemon a step leaves behind under sandbox-exec is killed when it ends [escape]") {
  Trees t;
  auto backend = makeSeatbeltBackend(lw::Environment{});
  REQUIRE(backend->probe().available);
  StepSpec step = t.spec(false);
  // A background job calls setsid(2) and execs sleep: out of the step's
  // session at once, re-parented away from the step when the shell ends.
  step.argv = {"/bin/sh", "-c",
               "/usr/bin/perl -e 'use POSIX; POSIX::setsid() or die; exec q(sleep), q(31)' & echo $!; sleep 0.3"};
  step.env = {{"PATH", "/usr/bin:/bin"}};
  auto p = backend->launch(step);
  REQUIRE(p);
  p.value()->wait(std::chrono::steady_clock::now() + std::chrono::seconds(20));
  const std::string out = p.value()->stdoutData().data;
  REQUIRE_FALSE(out.empty());
  const pid_t daemon = std::stoi(out);
  bool alive = false;
  for (const auto& e : lw::sandbox::process::posix::readProcessTable())
    if (e.pid == daemon && !e.zombie) alive = true;
  if (alive) ::kill(daemon, SIGKILL);
  CHECK_FALSE(alive);
}

#endif
