#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "escape/escape_common.h"

using namespace lw::escape;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// A host process for the step to attack: `sleep 60` with a secret in its environment.
struct Victim {
  pid_t pid = -1;
  std::string secret = "lw-s3cr3t-" + std::to_string(::getpid());
  Victim() {
    pid = ::fork();
    if (pid == 0) {
      std::string env = "LW_SECRET=" + secret;
      char* envp[] = {env.data(), nullptr};
      ::execle("/bin/sleep", "sleep", "60", nullptr, envp);
      ::_exit(127);
    }
  }
  bool alive() const { return ::waitpid(pid, nullptr, WNOHANG) == 0; }
  ~Victim() {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
};

std::uintmax_t sizeOf(const fs::path& p) {
  std::error_code ec;
  auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
}

// True once the file stops growing (the daemon writes every 20 ms).
bool stopsGrowing(const fs::path& p, std::chrono::milliseconds within) {
  auto until = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < until) {
    auto a = sizeOf(p);
    std::this_thread::sleep_for(150ms);
    if (sizeOf(p) == a) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("escape: TIOCSTI, also with the high bits of the request set") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    checkBlocked(sandboxExec(r, *c, {"tiocsti"}));
  }
}

TEST_CASE("escape: ptrace and signal a host process, read another process's environ") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    Victim v;
    checkBlocked(sandboxExec(r, *c, {"host-process", std::to_string(v.pid)}));
    CHECK(v.alive());
    checkBlocked(sandboxExec(r, *c, {"environ", v.secret}));
  }
}

TEST_CASE("escape: mount, remount and a nested user namespace") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    checkBlocked(sandboxExec(r, *c, {"mount", c->ws.string()}));
    checkBlocked(sandboxExec(r, *c, {"userns"}));
  }
}

TEST_CASE("escape: a setsid double-forked daemon is gone when sandbox exec returns") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path beat = c->writable / "beat";
    ExecResult res = sandboxExec(r, *c, {"daemon", beat.string()});
    INFO(res.describe());
    CHECK(res.status == 0);
    CHECK(sizeOf(beat) > 0);
    CHECK(stopsGrowing(beat, 1s));
  }
}

TEST_CASE("escape: the daemon is gone also when sandbox exec itself is SIGKILLed") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path beat = c->writable / "beat";
    ExecOptions o;
    o.background = true;
    pid_t pid = -1;
    sandboxExec(r, *c, {"daemon", beat.string(), "wait"}, o, &pid);
    auto until = std::chrono::steady_clock::now() + 20s;
    while (sizeOf(beat) == 0 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
    REQUIRE(sizeOf(beat) > 0);
    ::kill(pid, SIGKILL);
    ExecResult res = finish(pid, *c);
    CHECK(res.status == 128 + SIGKILL);
    CHECK(stopsGrowing(beat, 3s));
  }
}
