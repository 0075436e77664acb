// Tool calls per second through a step's bridge (JSON-RPC parse, guardrails:
// budget, canonical arguments and loop detection, grant and schema checks,
// dispatch, response), against a raw line echo over the same kind of socket
// measured in the same run.
//
// usage: bench_bridge [--calls N] [--runs N]
// Modes, each the median of --runs:
//   raw echo       a thread echoing each line back over a socketpair
//   session        Session::handle on the calling thread (no socket)
//   bridge         BridgeServer over a socketpair, one call at a time
//   bridge (x64)   the same, 64 calls in flight (what a chatty agent sees)
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "bridge/builtin_tools.h"
#include "bridge/server.h"
#include "bridge/session.h"
#include "guard/clock.h"

using namespace lw;
using namespace lw::bridge;
using SteadyClock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Distinct arguments per call: loop detection runs on every call without
// stopping the run.
std::string request(int i) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
         R"(,"method":"tools/call","params":{"name":"echo","arguments":{"path":"src/file)" + std::to_string(i) +
         R"(.c","line":)" + std::to_string(i % 500 + 1) + R"(,"query":"look for unchecked returns"}}})";
}

void sendAll(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n <= 0) std::abort();
    off += static_cast<std::size_t>(n);
  }
}

// Reads until `lines` newlines arrived.
void readLines(int fd, int lines, std::string& buf) {
  char tmp[65536];
  while (lines > 0) {
    ssize_t n = ::recv(fd, tmp, sizeof(tmp), 0);
    if (n <= 0) std::abort();
    for (ssize_t i = 0; i < n; ++i) lines -= tmp[i] == '\n';
  }
  buf.clear();
}

double drive(int fd, const std::vector<std::string>& reqs, int inFlight) {
  std::string buf;
  auto start = SteadyClock::now();
  for (std::size_t i = 0; i < reqs.size(); i += static_cast<std::size_t>(inFlight)) {
    std::string batch;
    int n = 0;
    for (std::size_t j = i; j < std::min(reqs.size(), i + static_cast<std::size_t>(inFlight)); ++j, ++n)
      batch += reqs[j] + "\n";
    sendAll(fd, batch);
    readLines(fd, n, buf);
  }
  return static_cast<double>(reqs.size()) / std::chrono::duration<double>(SteadyClock::now() - start).count();
}

Limits benchLimits(int calls) {
  Limits l;
  l.maxToolCalls = calls * 4;
  return l;
}

struct BenchStep {
  guard::SteadyClock clock;
  Limits limits;
  guard::BudgetMeter budget;
  ToolRegistry registry;
  std::unique_ptr<Session> session;

  explicit BenchStep(int calls) : limits(benchLimits(calls)), budget(limits, clock) {
    Tool echo;
    echo.name = "echo";
    echo.description = "echoes its arguments";
    echo.inputSchema =
        boost::json::object{{"type", "object"},
                            {"properties", boost::json::object{{"path", boost::json::object{{"type", "string"}}},
                                                               {"line", boost::json::object{{"type", "integer"}}},
                                                               {"query", boost::json::object{{"type", "string"}}}}}};
    echo.handler = [](const boost::json::object& args, ToolContext&) -> Result<ToolOutput> {
      ToolOutput out;
      out.structured = args;
      return out;
    };
    registry.add(echo);
    SessionOptions o;
    o.step = "bench/echo";
    o.grants = {"echo"};
    // The per-tool hard stop (default 50) would end the run; everything else
    // is the default and runs on every call.
    o.loop.suspiciousCallsPerTool = calls * 4;
    o.loop.maxCallsPerTool = calls * 4;
    session = std::make_unique<Session>(std::move(o), registry, budget, clock);
  }
};

}  // namespace

int main(int argc, char** argv) {
  int calls = 20000, runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--calls")
      calls = std::atoi(argv[i + 1]);
    else if (a == "--runs")
      runs = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: bench_bridge [--calls N] [--runs N]\n");
      return 2;
    }
  }
  std::vector<std::string> reqs;
  for (int i = 0; i < calls; ++i) reqs.push_back(request(i));

  std::vector<double> raw, direct, bridge1, bridge64;
  for (int r = 0; r < runs; ++r) {
    {
      int sv[2];
      ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
      std::thread echo([fd = sv[1]] {
        char tmp[65536];
        for (;;) {
          ssize_t n = ::recv(fd, tmp, sizeof(tmp), 0);
          if (n <= 0) return;
          sendAll(fd, std::string(tmp, static_cast<std::size_t>(n)));
        }
      });
      raw.push_back(drive(sv[0], reqs, 1));
      ::shutdown(sv[0], SHUT_RDWR);
      echo.join();
      ::close(sv[0]);
      ::close(sv[1]);
    }
    {
      BenchStep s(calls);
      auto start = SteadyClock::now();
      for (const auto& q : reqs)
        if (!s.session->handle(q)) std::abort();
      direct.push_back(calls / std::chrono::duration<double>(SteadyClock::now() - start).count());
      if (s.session->stopped()) std::abort();
    }
    for (int inFlight : {1, 64}) {
      BenchStep s(calls);
      auto pair = makeBridgeSocketPair();
      int client = pair->second.get();
      auto server = BridgeServer::serveFd(std::move(pair->first), *s.session);
      (inFlight == 1 ? bridge1 : bridge64).push_back(drive(client, reqs, inFlight));
      if (s.session->stopped()) std::abort();
      (*server)->stop();
    }
  }
  double rawM = median(raw), directM = median(direct), b1 = median(bridge1), b64 = median(bridge64);
  std::printf("bridge throughput, %d tools/call per run, median of %d runs\n", calls, runs);
  std::printf("  raw echo (socketpair, 1 in flight)   %10.0f lines/s\n", rawM);
  std::printf("  session (no socket)                  %10.0f calls/s\n", directM);
  std::printf("  bridge (socketpair, 1 in flight)     %10.0f calls/s   %.2fx the raw echo's time per call\n", b1,
              rawM / b1);
  std::printf("  bridge (socketpair, 64 in flight)    %10.0f calls/s\n", b64);
  return 0;
}
