// A step against its own supervisor: killing or stopping the per-step
// subreaper must not let a daemon outlive the step, nor hold loopwright past
// its --timeout, nor pass for a clean exit. Where a pid namespace or signal
// scoping hides the supervisor, the attack fails and nothing survives either.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <boost/json.hpp>

#include "escape/escape_common.h"
#include "support/host_requirement.h"

using namespace lw::escape;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The signal reached the supervisor (the hostile program says when it did not).
bool attacked(const ExecResult& r) {
  return r.out.find("supervisor attacked") != std::string::npos &&
         r.out.find("blocked: signal the supervisor") == std::string::npos &&
         r.out.find("blocked: the supervisor survived") == std::string::npos;
}

// The supervisor's pid as the hostile program printed it (for cleanup only).
pid_t attackedPid(const ExecResult& r) {
  auto at = r.out.find("supervisor attacked: pid ");
  return at == std::string::npos ? -1 : std::stoi(r.out.substr(at + 25));
}

}  // namespace

TEST_CASE("escape: a step that SIGKILLs its supervisor leaves no daemon, and the report says so") {
  for (const NetworkedRunner& s : runnersWithDirect(true)) {
    CAPTURE(s.runner.label());
    auto c = makeCase(s.runner);
    fs::path beat = c->writable / "beat";
    ExecOptions o;
    o.network = s.network;
    const fs::path report = c->root / "report.json";
    o.flags = {"--timeout", "30", "--report", report.string()};
    ExecResult res = sandboxExec(s.runner, *c, {"supervisor", beat.string(), "kill"}, o);
    INFO(res.describe());
    CHECK(sizeOf(beat) > 0);
    CHECK(stopsGrowing(beat, 1s));
    if (attacked(res)) {
      CHECK(res.status == 128 + SIGKILL);
      CHECK(res.err.find("the step's supervisor was killed by signal 9") != std::string::npos);
      std::ifstream in(report);
      std::stringstream text;
      text << in.rdbuf();
      boost::system::error_code ec;
      auto json = boost::json::parse(text.str(), ec);
      REQUIRE_FALSE(ec);
      CHECK(json.at("outcome").as_string() == "supervisor-lost");
      CHECK(std::string(json.at("supervisorLost").as_string()).find("killed by signal 9") != std::string::npos);
      CHECK(json.at("descendantsKilled").as_int64() >= 1);
    } else {
      CHECK(res.status == 0);
      CHECK(res.out.find("blocked: ") != std::string::npos);
    }
  }
}

TEST_CASE("escape: a step that SIGSTOPs its supervisor does not hold loopwright past --timeout") {
  for (const NetworkedRunner& s : runnersWithDirect(true)) {
    CAPTURE(s.runner.label());
    auto c = makeCase(s.runner);
    fs::path beat = c->writable / "beat";
    ExecOptions o;
    o.network = s.network;
    o.flags = {"--timeout", "2"};
    o.background = true;
    pid_t pid = -1;
    auto started = std::chrono::steady_clock::now();
    sandboxExec(s.runner, *c, {"supervisor", beat.string(), "stop"}, o, &pid);
    // --timeout 2, the supervisor's grace, the output drain: 15 s is a hang.
    bool ended = false;
    while (!ended && std::chrono::steady_clock::now() - started < 15s) {
      siginfo_t info{};
      ended = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
      if (!ended) std::this_thread::sleep_for(50ms);
    }
    if (!ended) ::kill(pid, SIGKILL);
    ExecResult res = finish(pid, *c);
    INFO(res.describe());
    CHECK(ended);
    if (pid_t sup = attackedPid(res); sup > 0 && !ended) ::kill(sup, SIGKILL);  // the old hang's leftovers
    CHECK(sizeOf(beat) > 0);
    CHECK(stopsGrowing(beat, 1s));
    if (res.out.find("supervisor stopped") != std::string::npos) {
      CHECK(res.status == 128 + SIGKILL);
      CHECK(res.err.find("the step's supervisor was stopped") != std::string::npos);
    } else {
      CHECK(res.status == 0);
      CHECK(res.out.find("blocked: ") != std::string::npos);
    }
  }
}
