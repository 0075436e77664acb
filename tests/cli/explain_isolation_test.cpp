// `loopwright explain`: each step's isolation level, the backend negotiation
// picks (or would pick) on this host with its level, and where the level
// came from; a level no backend gives is refused as `run` would (exit 3).
#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "support/run_cli.h"
#include "support/temp_dir.h"

using lw::test::runCli;
using lw::test::TempDir;

namespace {

std::string taskpack(const std::string& specExtra) {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: iso}\nspec:\n" + specExtra +
         "  stages:\n    - name: review\n      on: [pull_request.opened]\n      steps:\n"
         "        - {name: a, run: [x]}\n";
}

const std::string kHostAllowingDirect =
    "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\n";

}  // namespace

TEST_CASE("explain: a taskpack asking for isolation L3 exits 3 with the BLOCKER naming L3") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", taskpack("  sandbox: {preferredBackends: [direct-dedicated, linux-bwrap], "
                                                 "networkMode: allow-outbound}\n  isolation: L3\n"));
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHostAllowingDirect)}};
  auto r = runCli({"explain", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK(r.out.find("  isolation (minimum)           L3\n") != std::string::npos);
  CHECK(r.out.find("← taskpack spec.isolation (" + tp + ":6)") != std::string::npos);
  CHECK(r.out.find("  backend (negotiated here)     none: refused (ISOLATION_UNAVAILABLE)\n") != std::string::npos);
  CHECK(r.out.find("direct-dedicated: provides isolation L1, the policy requires at least L3") != std::string::npos);
  CHECK(r.out.find("  BLOCKER: no sandbox backend gives step review/a what its policy requires "
                   "(ISOLATION_UNAVAILABLE): the step asks for isolation L3 (remote: another kernel per step); "
                   "no backend here gives L3: preferredBackends lists no backend that gives it (linux-gvisor, k8s-pod "
                   "would). Last safe state: nothing ran. Next action: L3 needs gVisor (the runsc package) on this "
                   "host and linux-gvisor in preferredBackends (docs/isolation-levels.md), or a cluster in the host "
                   "config and k8s-pod (docs/kubernetes.md)") != std::string::npos);
  CHECK(r.err.find("error[ISOLATION_UNAVAILABLE]: 1 step would be refused on this host: review/a") !=
        std::string::npos);

  auto j = runCli({"explain", tp, "--json"}, env);
  CHECK(j.status == 3);
  auto step = boost::json::parse(j.out).at("steps").at(0).as_object();
  CHECK(step.at("negotiation").at("backend").is_null());
  CHECK(step.at("negotiation").at("error").at("code").as_string() == "ISOLATION_UNAVAILABLE");
  CHECK(step.at("negotiation").at("blocker").as_string().find("isolation L3") != std::string::npos);
}

TEST_CASE("explain: each step's level, the backend that gives it and where the level came from") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", taskpack("  sandbox: {preferredBackends: [macos-seatbelt, direct-dedicated], "
                                                 "networkMode: allow-outbound}\n"));
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHostAllowingDirect)}};
  auto r = runCli({"explain", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("  isolation (minimum)           L1\n"
                   "                                ← default L1\n") != std::string::npos);
  CHECK(r.out.find("  backend (negotiated here)     direct-dedicated: isolation L1 (local: an OS sandbox on the "
                   "orchestrator's machine, or only the job's own VM)\n"
                   "                                ← the first of preferredBackends that gives L1 and enforces "
                   "what the policy requires here; refused before it: macos-seatbelt (") != std::string::npos);

  auto j = runCli({"explain", tp, "--json"}, env);
  CHECK(j.status == 0);
  auto step = boost::json::parse(j.out).at("steps").at(0).as_object();
  CHECK(step.at("negotiation").at("backend").as_string() == "direct-dedicated");
  CHECK(step.at("negotiation").at("isolation").as_string() == "L1");
  CHECK(step.at("negotiation").at("refused").at(0).at("backend").as_string() == "macos-seatbelt");
  CHECK(step.at("origins").at("isolation").as_string() == "default L1");

  // A floor above the taskpack's level is the taskpack's to meet, L3 as L2.
  std::string floored = dir.write("floored.yaml",
                                  "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                                  "floor: {minIsolation: L3, allowDirectDedicated: true}\n");
  auto f = runCli({"explain", tp}, {{"LOOPWRIGHT_HOST_CONFIG", floored}});
  CHECK(f.status == 2);
  CHECK(f.err.find("set spec.isolation: L3") != std::string::npos);
}

TEST_CASE("explain: a step's own level, the backends from it up, and its escalation chain, text and JSON") {
  TempDir dir;
  std::string tp =
      dir.write("tp.yaml",
                "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: iso}\nspec:\n"
                "  sandbox: {preferredBackends: [direct-dedicated, docker], networkMode: allow-outbound}\n"
                "  stages:\n    - name: review\n      on: [pull_request.opened]\n      steps:\n"
                "        - name: a\n          run: [x]\n          idempotent: true\n"
                "          escalate: {on: [LOOP_DETECTED], to: L2}\n"
                "        - name: b\n          run: [x]\n          isolation: L2\n          escalate: {to: L3}\n"
                "          idempotent: true\n"
                "        - {name: c, run: [x], escalate: {}}\n");
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHostAllowingDirect)}};
  auto r = runCli({"explain", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.out.find("  backends (L1 and above)       direct-dedicated, docker\n") != std::string::npos);
  CHECK(r.out.find("  escalation                    L1 -> L2 on BREAKER_OPEN, LOOP_DETECTED (idempotent)\n"
                   "                                ← a blocked step is re-run once at L2 on: docker\n") !=
        std::string::npos);
  CHECK(r.out.find("  isolation (minimum)           L2\n                                ← step isolation (" + tp +
                   ":16)\n  backends (L2 and above)       docker\n") != std::string::npos);
  // L3 exists (linux-gvisor), but this taskpack lists no backend of it.
  CHECK(r.out.find("  escalation                    L2 -> L3") != std::string::npos);
  CHECK(r.out.find("re-run once at L3 on: (none listed: a run ends ISOLATION_UNAVAILABLE)") != std::string::npos);
  CHECK(r.out.find("  escalation                    none: the step is not idempotent (idempotent: true allows "
                   "one re-run)\n") != std::string::npos);

  auto j = runCli({"explain", tp, "--json"}, env);
  auto steps = boost::json::parse(j.out).at("steps").as_array();
  const auto& a = steps.at(0).at("isolationChain");
  CHECK(a.at("level").as_string() == "L1");
  CHECK(a.at("why").as_string() == "default L1");
  CHECK(a.at("backends").as_array().size() == 2);
  CHECK(a.at("escalation").at("chain").as_string() == "L1 -> L2 on BREAKER_OPEN, LOOP_DETECTED (idempotent)");
  CHECK(a.at("escalation").at("to").as_string() == "L2");
  CHECK(a.at("escalation").at("backends").at(0).as_string() == "docker");
  const auto& b = steps.at(1).at("isolationChain");
  CHECK(b.at("level").as_string() == "L2");
  CHECK(b.at("escalation").at("allowed").as_bool());
  CHECK(b.at("escalation").at("to").as_string() == "L3");
  CHECK(b.at("escalation").at("backends").as_array().empty());
  CHECK(steps.at(2).at("escalate").at("to").is_null());
  CHECK(steps.at(0).at("idempotent").as_bool());
}
