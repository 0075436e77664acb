// `loopwright run` of a taskpack step asking for isolation L3 on k8s-pod,
// against the local Kubernetes API server: the probe's canary pod showed the
// default-deny policy enforced and gVisor's kernel, so negotiation picks
// k8s-pod; the step runs in its pod (workspace in, findings out), verification
// passes, and no pod is left. Where the policy is not enforced, the step is
// refused with a BLOCKER and nothing runs. Agent steps reach their bridge
// through the pod: their tool calls are answered on the runner, the loop
// detector stops a looping one, a second connection to the relay's socket
// fails, and no credential reaches a pod. An allow-list step reaches its
// listed hosts through the runner's egress proxy and nothing else.
#include <doctest/doctest.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/egress_hosts.h"
#include "support/k8s_server_process.h"
#include "support/local_k8s_server.h"

using namespace lw::test;

namespace {

const std::string kStage =
    "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
    "        - name: podded\n"
    "          run: [sh, -c, 'test -f README.md && echo "
    "\"{\\\"findings\\\":[{\\\"ruleId\\\":\\\"x/y\\\",\\\"severity\\\":\\\"notice\\\",\\\"message\\\":\\\"m\\\"}]}\" "
    "> \"$LOOPWRIGHT_OUT/findings.json\"']\n";

// The step namespace "ci": gVisor's RuntimeClass and the default-deny policy.
void stepNamespace(LocalK8sServer& server) {
  server.put("/apis/node.k8s.io/v1/runtimeclasses/gvisor",
             boost::json::object{{"apiVersion", "node.k8s.io/v1"},
                                 {"kind", "RuntimeClass"},
                                 {"metadata", boost::json::object{{"name", "gvisor"}}},
                                 {"handler", "runsc"}});
  server.put("/apis/networking.k8s.io/v1/namespaces/ci/networkpolicies/loopwright-default-deny",
             boost::json::object{
                 {"apiVersion", "networking.k8s.io/v1"},
                 {"kind", "NetworkPolicy"},
                 {"metadata", boost::json::object{{"name", "loopwright-default-deny"}, {"namespace", "ci"}}},
                 {"spec", boost::json::object{
                              {"podSelector",
                               boost::json::object{{"matchLabels", boost::json::object{{"app.kubernetes.io/managed-by",
                                                                                        "loopwright"}}}}},
                              {"policyTypes", boost::json::array{"Ingress", "Egress"}}}}});
}

// The server runs in a process of its own: `loopwright run` is forked from
// this one, which must then hold no server thread (support/k8s_server_process.h).
struct K8sRun {
  K8sServerProcess server;
  Scratch s;
  fs::path repo = s.root / "repo";

  std::string hostConfigExtra;  // more HostConfig keys (egress)

  explicit K8sRun(bool policyEnforced = true, const std::string& stage = kStage,
                  const std::map<std::string, std::string>& files = {},
                  const std::string& policy = "  isolation: L3\n  sandbox: {preferredBackends: [k8s-pod]}\n")
      : server([policyEnforced](LocalK8sServer& k) {
          stepNamespace(k);
          if (!policyEnforced) k.setNetworkPolicyEnforced(false);
        }) {
    std::map<std::string, std::string> all = files;
    all["README.md"] = "hello\n";
    all[".loopwright/taskpack.yaml"] = taskpack(stage, policy);
    makeRepo(repo, all);
  }
  CliRun run(std::map<std::string, std::string> env = {}) {
    writeFile(s.root / "kubeconfig",
              "apiVersion: v1\nkind: Config\ncurrent-context: ci\n"
              "clusters: [{name: local, cluster: {server: '" +
                  server.url() +
                  "'}}]\n"
                  "users: [{name: runner, user: {token: " +
                  LocalK8sServer::kToken +
                  "}}]\n"
                  "contexts: [{name: ci, context: {cluster: local, user: runner, namespace: ci}}]\n");
    writeFile(s.root / "host.yaml",
              "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
              "kubernetes: {namespace: ci, runtimeClassName: gvisor, image: 'ghcr.io/acme/tools@sha256:" +
                  std::string(64, 'a') + "', kubeconfig: '" + (s.root / "kubeconfig").string() + "'}\n" +
                  hostConfigExtra);
    env["LOOPWRIGHT_HOST_CONFIG"] = (s.root / "host.yaml").string();
    env["XDG_CACHE_HOME"] = (s.root / "cache").string();
    return runDispatch(s, repo, env);
  }
  std::size_t requests(const std::string& start) {
    std::size_t n = 0;
    for (const std::string& r : server.report().requests) n += r.starts_with(start) ? 1 : 0;
    return n;
  }
  std::size_t created() { return requests("POST /api/v1/namespaces/ci/pods"); }
  ~K8sRun() {
    const K8sServerReport& seen = server.report();
    std::string all;
    for (const std::string& v : seen.violations) all += v + "\n";
    CHECK_MESSAGE(all.empty(), all);
    CHECK(seen.livePodProcesses == 0);
  }
};

}  // namespace

TEST_CASE("run: a taskpack asking for L3 on k8s-pod runs in a pod once the canary held: findings out, pod deleted") {
  LW_REQUIRE_HOST(nodeSandboxInstalled(), "bubblewrap gives the local API server's pods their network");
  K8sRun k;
  auto r = k.run();
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto step = stepOf(runJson(k.s.root / "out"), "podded");
  CHECK(step.at("backend").as_string() == "k8s-pod");
  CHECK(step.at("outcome").as_string() == "passed");
  CHECK(step.at("verification").at("result").as_string() == "passed");
  REQUIRE(step.at("findings").as_array().size() == 1);
  CHECK(step.at("findings").as_array()[0].at("ruleId").as_string() == "x/y");
  CHECK(k.created() == 2);                                       // the canary's pod and the step's
  CHECK(k.requests("DELETE /api/v1/namespaces/ci/pods/") >= 2);  // each deleted (the canary's, the step's)
}

TEST_CASE("run: where the cluster does not enforce the NetworkPolicy an L3 step on k8s-pod is refused, no step pod") {
  K8sRun k(false);
  auto r = k.run();
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  auto step = stepOf(runJson(k.s.root / "out"), "podded");
  CHECK(step.at("outcome").as_string() == "refused");
  const std::string blocker(step.at("blocker").as_string());
  CHECK(blocker.starts_with("BLOCKER: no sandbox backend gives step s/podded what its policy requires"));
  CHECK(r.out.find(blocker) != std::string::npos);
  const std::string why(step.at("backendsRefused").as_array().at(0).as_string());
  CHECK_MESSAGE(why.find("network mode none is absent (the canary pod reached listener, api") != std::string::npos,
                why);
  CHECK(why.find("does not enforce") != std::string::npos);
  CHECK(k.created() == 1);  // the canary's only
}

namespace {

// A credential of the runner's that must stay on it.
const std::string kGithubToken = "ghs_k8sBridgeRunnerSecret0123456789abcdef";

// The example's bridge-demo (examples/review) with the test's loopwright:
// the event through github.event, a finding through findings.report. Then,
// inside the step, the event file as the step sees it, its environment,
// and the attack: a second connection to the relay's socket ($1).
const std::string kBridgeDemo =
    std::string("set -u\n") + "LW='" + LOOPWRIGHT_BIN + "'\nHOSTILE='" + LW_HOSTILE_BIN +
    "'\n"
    "\"$LW\" bridge stdio <<'JSON' >\"$LOOPWRIGHT_OUT/bridge.log\"\n"
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
    "\"capabilities\":{},\"clientInfo\":{\"name\":\"bridge-demo\",\"version\":\"1\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"github.event\",\"arguments\":{}}}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"findings.report\","
    "\"arguments\":{\"findings\":[{\"ruleId\":\"docs/readme\",\"severity\":\"notice\",\"message\":\"through the pod's "
    "bridge\",\"path\":\"README.md\",\"line\":1}]}}}\n"
    "JSON\n"
    "cat \"$LOOPWRIGHT_EVENT\" >\"$LOOPWRIGHT_OUT/event-seen.json\"\n"
    "env >\"$LOOPWRIGHT_OUT/env.txt\"\n"
    "\"$HOSTILE\" --lw-hostile unix \"$1\" >\"$LOOPWRIGHT_OUT/second.txt\" 2>&1\n"
    "if test -e \"$1\"; then echo present; else echo absent; fi >\"$LOOPWRIGHT_OUT/socket.txt\"\n";

// The example's looper: the same call again and again, each through a new `bridge stdio` on fd 3.
const std::string kLooper = std::string("LW='") + LOOPWRIGHT_BIN +
                            "'\ni=0\nwhile [ \"$i\" -lt 100 ]; do\n  i=$((i + 1))\n"
                            "  printf '{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"tools/call\",\"params\":{\"name\":"
                            "\"github.event\",\"arguments\":{}}}\\n' \"$i\" |\n"
                            "    \"$LW\" bridge stdio >>\"$LOOPWRIGHT_OUT/looper.log\" || true\ndone\n"
                            "echo \"looper: never stopped\"\n";

}  // namespace

TEST_CASE("run: an agent step on k8s-pod reaches its bridge through the pod and sees the run's event") {
  LW_REQUIRE_HOST(nodeSandboxInstalled(), "bubblewrap gives the local API server's pods their network");
  K8sRun k(true,
           "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
           "        - name: bridged\n"
           "          run: [sh, .loopwright/agents/bridge-demo.sh, /tmp/.loopwright-bridge/bridge.sock]\n"
           "          role: reviewer\n"
           "          tools: [github.event, findings.report]\n",
           {{".loopwright/agents/bridge-demo.sh", kBridgeDemo}});
  auto r = k.run({{"GITHUB_TOKEN", kGithubToken}});
  INFO(r.out << r.err);
  const fs::path stepOut = k.s.root / "out/steps/s/bridged/out";
  INFO(readFile(k.s.root / "out/steps/s/bridged/stderr.log"));
  auto step = stepOf(runJson(k.s.root / "out"), "bridged");
  CHECK(step.at("backend").as_string() == "k8s-pod");
  CHECK(step.at("outcome").as_string() == "passed");
  CHECK(step.at("toolCalls").as_int64() == 2);  // github.event, findings.report: answered on the runner
  REQUIRE(step.at("findings").as_array().size() == 1);
  CHECK(step.at("findings").as_array()[0].at("ruleId").as_string() == "docs/readme");
  CHECK(readFile(stepOut / "event-seen.json") == readFile(k.s.root / "out/event.json"));
  // The attack: the relay's socket is gone once the step's init connected, and a new socket is refused.
  CHECK(readFile(stepOut / "socket.txt") == "absent\n");
  const std::string second = readFile(stepOut / "second.txt");
  CHECK_MESSAGE(second.starts_with("blocked: "), second);
  CHECK(second.find("ESCAPED") == std::string::npos);
  // No credential of the runner's in the step's environment or in any pod the server received.
  const std::string env = readFile(stepOut / "env.txt");
  CHECK(env.find("LOOPWRIGHT_BRIDGE=fd:3") != std::string::npos);
  CHECK(env.find(kGithubToken) == std::string::npos);
  CHECK(env.find(LocalK8sServer::kToken) == std::string::npos);
  const K8sServerReport& seen = k.server.report();
  REQUIRE(seen.createdPods.size() == 2);  // the canary's and the step's
  for (const std::string& pod : seen.createdPods) {
    CHECK(pod.find(kGithubToken) == std::string::npos);
    CHECK(pod.find(LocalK8sServer::kToken) == std::string::npos);
  }
  CHECK(seen.createdPods[1].find("\"LOOPWRIGHT_BRIDGE\",\"value\":\"/tmp/.loopwright-bridge/bridge.sock\"") !=
        std::string::npos);
  CHECK(k.requests("DELETE /api/v1/namespaces/ci/pods/") >= 2);
}

TEST_CASE("run: a looping agent step on k8s-pod is stopped by the bridge's loop detection and its pod deleted") {
  LW_REQUIRE_HOST(nodeSandboxInstalled(), "bubblewrap gives the local API server's pods their network");
  K8sRun k(true,
           "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
           "        - name: looper\n"
           "          run: [sh, .loopwright/agents/looper.sh]\n"
           "          role: reviewer\n"
           "          tools: [github.event]\n"
           "          limits: {wallTimeMs: 60000}\n",
           {{".loopwright/agents/looper.sh", kLooper}});
  auto r = k.run();
  INFO(r.out << r.err);
  auto looper = stepOf(runJson(k.s.root / "out"), "looper");
  CHECK(looper.at("backend").as_string() == "k8s-pod");
  CHECK(looper.at("outcome").as_string() == "blocked");
  CHECK(looper.at("toolCalls").as_int64() == 5);
  const auto& events = looper.at("guardrailEvents").as_array();
  REQUIRE(events.size() == 3);
  CHECK(events[0].at("kind").as_string() == "warn");
  CHECK(events[2].at("kind").as_string() == "stop");
  CHECK(events[2].at("code").as_string() == "LOOP_DETECTED");
  CHECK(looper.at("blocker").as_string().starts_with("BLOCKER: step s/looper was stopped by LOOP_DETECTED"));
  CHECK(readFile(k.s.root / "out/steps/s/looper/stdout.log").find("never stopped") == std::string::npos);
  CHECK(k.requests("DELETE /api/v1/namespaces/ci/pods/") >= 2);
}

namespace {

// Inside the step: curl through the proxy variables to the listed hosts, to
// an unlisted port and name, and around the proxy; then 33 connections held
// open at once to 127.0.0.1:3128 (each a CONNECT to the listed HTTP server).
const std::string kFetch =
    "try() { label=$1; shift; code=$(curl -s -o /dev/null -w '%{http_code}/%{http_connect}' --max-time 20 "
    "--cacert cert.pem \"$@\"); echo \"$label $? $code\" >> \"$LOOPWRIGHT_OUT/results\"; }\n"
    "try allowed \"https://$1:$2/\"\n"
    "try http-allowed \"http://$1:$3/\"\n"
    "try other-port \"https://$1:$4/\"\n"
    "try other-name https://example.com/\n"
    "try direct-curl --noproxy '*' \"https://$1:$2/\"\n"
    "python3 .loopwright/agents/hold.py \"$1\" \"$3\" > \"$LOOPWRIGHT_OUT/held.txt\" 2>&1\n";

const std::string kHold =
    "import socket, sys, time\n"
    "host, port = sys.argv[1], sys.argv[2]\n"
    "def tunnel():\n"
    "    s = socket.create_connection(('127.0.0.1', 3128), timeout=30)\n"
    "    try:\n"
    "        s.sendall(('CONNECT %s:%s HTTP/1.1\\r\\nHost: %s:%s\\r\\n\\r\\n' % (host, port, host, port)).encode())\n"
    "    except (BrokenPipeError, ConnectionResetError):\n"
    "        return s, 'refused'\n"
    "    try:\n"
    "        answer = s.recv(4096)\n"
    "    except ConnectionResetError:\n"
    "        answer = b''\n"
    "    return s, (answer.split(b'\\r\\n')[0] or b'refused').decode()\n"
    "held = [tunnel() for _ in range(32)]\n"
    "for _, line in held: print('held', line)\n"
    "extra, line = tunnel()\n"
    "print('33rd', line)\n"
    "for s, _ in held: s.close()\n"
    "time.sleep(2)\n"
    "print('after', tunnel()[1])\n";

}  // namespace

TEST_CASE("run: an allow-list step on k8s-pod reaches its listed hosts through the runner's proxy and nothing else") {
  LW_REQUIRE_HOST(nodeSandboxInstalled(), "bubblewrap gives the local API server's pods their network");
  const std::string host = egress::hostName();
  const auto addresses = egress::addressesOf(host);
  LW_REQUIRE_HOST(!addresses.empty(), "this machine's name (" + host + ") does not resolve");
  Scratch certs;
  egress::TlsServer tls(certs.root, host);
  fs::create_directories(certs.root / "www");
  egress::HttpServer http(certs.root / "www");
  const std::string tlsPort = std::to_string(tls.port), httpPort = std::to_string(http.port);
  K8sRun k(true,
           "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
           "        - name: fetch\n"
           "          run: [sh, .loopwright/agents/fetch.sh, " +
               host + ", '" + tlsPort + "', '" + httpPort + "', '" + std::to_string(tls.port + 1) + "']\n",
           {{".loopwright/agents/fetch.sh", kFetch},
            {".loopwright/agents/hold.py", kHold},
            {"cert.pem", readFile(tls.cert)}},
           "  isolation: L3\n  sandbox:\n    preferredBackends: [k8s-pod]\n    networkMode: allow-list\n"
           "    egress: [\"" +
               host + ":" + tlsPort + "\", \"" + host + ":" + httpPort + "\"]\n");
  std::string networks;
  for (const auto& a : addresses) networks += (networks.empty() ? "" : ", ") + a;
  k.hostConfigExtra = "egress:\n  allowedNetworks: [" + networks + "]\n";
  auto r = k.run();
  INFO(r.out << r.err);
  INFO(readFile(k.s.root / "out/steps/s/fetch/stderr.log"));
  const fs::path stepOut = k.s.root / "out/steps/s/fetch/out";
  const std::string results = readFile(stepOut / "results");
  INFO(results);
  CHECK(r.status == 0);
  CHECK(results.find("allowed 0 200/200\n") != std::string::npos);
  CHECK(results.find("http-allowed 0 200/000\n") != std::string::npos);
  CHECK(results.find("other-port 56 000/403\n") != std::string::npos);  // the proxy's 403 to CONNECT
  CHECK(results.find("other-name 56 000/403\n") != std::string::npos);
  CHECK(results.find("direct-curl 7 000/000\n") != std::string::npos);  // the pod's network reaches nothing
  // The bound: 32 tunnels held at once, the 33rd closed unanswered (or reset), and room again once they end.
  const std::string held = readFile(stepOut / "held.txt");
  INFO(held);
  std::size_t tunnels = 0;
  for (std::size_t at = 0; (at = held.find("held HTTP/1.1 200", at)) != std::string::npos; ++at) ++tunnels;
  CHECK(tunnels == 32);
  CHECK(held.find("33rd refused\n") != std::string::npos);
  CHECK(held.find("after HTTP/1.1 200") != std::string::npos);
  auto step = stepOf(runJson(k.s.root / "out"), "fetch");
  CHECK(step.at("backend").as_string() == "k8s-pod");
  CHECK(step.at("networkMode").as_string() == "allow-list");
  // Denied by the list: the other port and the other name (the held tunnels, closed before any ClientHello, are
  // denied too, as the proxy denies every CONNECT tunnel that carries no TLS server name).
  std::vector<std::string> listDenials;
  for (const auto& e : step.at("egress").as_array())
    if (!e.at("allowed").as_bool() && e.at("reason").as_string().ends_with("is not in the step's egress list"))
      listDenials.emplace_back(e.at("reason").as_string());
  CHECK(listDenials.size() == 2);
  CHECK(std::count(listDenials.begin(), listDenials.end(), "example.com:443 is not in the step's egress list") == 1);
  CHECK(r.out.find("egress denied example.com:443: example.com:443 is not in the step's egress list") !=
        std::string::npos);
  CHECK(k.requests("DELETE /api/v1/namespaces/ci/pods/") >= 2);
}
