// Resource limits against a step that tries to take the host down: a fork
// bomb, a memory bomb and disk fillers, each under a small limit given with
// `sandbox exec` flags, as root and as lwtest on every backend. Each attack
// stops at its own bound too (4096 processes, 1 GiB, 64 MiB), so a limit that
// does not hold fails the case without harming this host. Where the report
// says a limit is not enforced here, the case asserts that it says why.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "escape/escape_common.h"
#include "support/host_requirement.h"

using namespace lw::escape;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The report's entry for `limit` ({limit, value, enforced, mechanism, note}).
boost::json::object limitEntry(const fs::path& report, const std::string& limit) {
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto v = boost::json::parse(text.str(), ec);
  if (ec || !v.is_object() || !v.as_object().contains("limits")) return {};
  for (const auto& e : v.at("limits").as_array())
    if (e.at("limit").as_string() == limit) return e.as_object();
  return {};
}

struct LimitRun {
  ExecResult result;
  boost::json::object entry;  // the report's word on the limit
  bool enforced() const { return entry.contains("enforced") && entry.at("enforced").as_bool(); }
};

LimitRun runLimited(const NetworkedRunner& l, const CaseDirs& c, const std::vector<std::string>& attack,
                    const std::vector<std::string>& flags, const std::string& limit) {
  ExecOptions o;
  o.network = l.network;
  const fs::path report = c.root / "report.json";
  o.flags = {"--timeout", "60", "--report", report.string()};
  o.flags.insert(o.flags.end(), flags.begin(), flags.end());
  LimitRun run{sandboxExec(l.runner, c, attack, o), {}};
  run.entry = limitEntry(report, limit);
  return run;
}

// "blocked: <what> after N …" -> N.
long countBefore(const std::string& out, const std::string& what) {
  auto at = out.find("blocked: " + what + " after ");
  return at == std::string::npos ? -1 : std::stol(out.substr(at + 16 + what.size()));
}

// A limit the report calls not enforced must say why; the attack ran into
// its own bound then, which proves nothing either way.
void checkNotEnforcedSaysWhy(const LimitRun& run) {
  INFO(run.result.describe());
  REQUIRE(run.entry.contains("enforced"));
  CHECK(!std::string(run.entry.at("note").as_string()).empty());
  MESSAGE("not enforced here: " << run.entry.at("mechanism").as_string() << ": " << run.entry.at("note").as_string());
}

}  // namespace

TEST_CASE("escape: a fork bomb under --pids 64 stays bounded and is gone after the step") {
  for (const NetworkedRunner& l : runnersWithDirect(false)) {
    CAPTURE(l.runner.label());
    auto c = makeCase(l.runner);
    const fs::path alive = c->writable / "alive";
    auto started = std::chrono::steady_clock::now();
    LimitRun run = runLimited(l, *c, {"fork-bomb", "4096", alive.string()}, {"--pids", "64"}, "pids");
    INFO(run.result.describe());
    CHECK(std::chrono::steady_clock::now() - started < 30s);
    // Every child the bomb made is gone with the step, limit or not.
    CHECK(stopsGrowing(alive, 1s));
    if (!run.enforced()) {
      checkNotEnforcedSaysWhy(run);
      continue;
    }
    checkBlocked(run.result);
    long children = countBefore(run.result.out, "fork");
    CHECK(children >= 0);
    CHECK(children < 64);
    // The host can still fork.
    pid_t p = ::fork();
    if (p == 0) ::_exit(0);
    REQUIRE(p > 0);
    ::waitpid(p, nullptr, 0);
  }
}

TEST_CASE("escape: a memory bomb under --memory 256MiB is stopped, OOM-killed or refused memory") {
  for (const NetworkedRunner& l : runnersWithDirect(false)) {
    CAPTURE(l.runner.label());
    auto c = makeCase(l.runner);
    LimitRun run = runLimited(l, *c, {"memory-bomb", "1024"}, {"--memory", "256MiB"}, "memory");
    INFO(run.result.describe());
    CHECK(run.result.out.find("ESCAPED") == std::string::npos);
    if (!run.enforced()) {
      checkNotEnforcedSaysWhy(run);
      continue;
    }
    if (run.result.status == 128 + SIGKILL) continue;  // the cgroup's OOM killer
    checkBlocked(run.result);
    long got = countBefore(run.result.out, "mmap");
    CHECK(got >= 0);
    CHECK(got <= 256);
  }
}

TEST_CASE("escape: a disk filler under --file-size 16MiB writes at most that much per file") {
  for (const NetworkedRunner& l : runnersWithDirect(false)) {
    CAPTURE(l.runner.label());
    auto c = makeCase(l.runner);
    const fs::path big = c->writable / "big";
    LimitRun run = runLimited(l, *c, {"fill-file", big.string(), "64"}, {"--file-size", "16MiB"}, "fileSize");
    INFO(run.result.describe());
    REQUIRE(run.enforced());  // RLIMIT_FSIZE, or the container's ulimit: everywhere
    checkBlocked(run.result);
    CHECK(run.result.out.find("File too large") != std::string::npos);
    CHECK(sizeOf(big) <= (16u << 20));
  }
}

TEST_CASE("escape: a step filling its private /tmp stops at --tmp-size, where the backend gives one") {
  for (const NetworkedRunner& l : runnersWithDirect(false)) {
    CAPTURE(l.runner.label());
    auto c = makeCase(l.runner);
    LimitRun run = runLimited(l, *c, {"fill-dir", "/tmp", "64"}, {"--tmp-size", "16MiB"}, "tmpSize");
    INFO(run.result.describe());
    if (!run.enforced()) {
      // No private tmpfs: the step's /tmp is not a RAM disk of its own.
      CHECK(std::string(run.entry.at("mechanism").as_string()) == "not applicable");
      checkNotEnforcedSaysWhy(run);
      continue;
    }
    checkBlocked(run.result);
    CHECK(run.result.out.find("No space left on device") != std::string::npos);
    long wrote = countBefore(run.result.out, "write");
    CHECK(wrote <= 16);
  }
}
