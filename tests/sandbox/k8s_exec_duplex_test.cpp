// exec with stdin streamed from a descriptor: both directions at once over
// one v5.channel.k8s.io WebSocket, as the bridge needs. The peer answers
// only what it has read back, so a client or server that sends the whole
// stdin before reading any output never gets past the first line.
#include <doctest/doctest.h>

#include <sys/socket.h>
#include <unistd.h>

#include "sandbox/k8s/k8s_exec.h"
#include "support/k8s_pod_cluster.h"

using namespace lw;
using namespace lw::sandbox::k8s;
using lw::test::PodCluster;

TEST_CASE("k8s exec: stdin streams while the output is read, each line answered before the next is sent") {
  PodCluster c;
  c.runtimeClass("runsc");
  PodPlanInput plan;
  plan.spec.argv = {"true"};
  plan.image = "ghcr.io/acme/tools@sha256:" + std::string(64, 'a');
  plan.ns = "ci";
  plan.podName = "lw-4242-duplex";
  plan.runtimeClassName = "gvisor";
  plan.runLabel = "4242";
  plan.stepLabel = "duplex";
  K8sPodConfig config = c.config(c.server.url());
  REQUIRE(createPod(*config.transport, config.endpoint, planPod(plan)).ok());
  REQUIRE(waitRunning(*config.transport, config.endpoint, "ci", plan.podName,
                      std::chrono::steady_clock::now() + std::chrono::seconds(10))
              .ok());
  int pair[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
  REQUIRE(::write(pair[0], "ping\n", 5) == 5);
  std::string echoed;
  ExecRequest r{"ci",
                plan.podName,
                kStepContainer,
                {"cat"},
                std::nullopt,
                [&](int stream, const char* data, std::size_t size) {
                  if (stream != 1) return;
                  echoed.append(data, size);
                  if (echoed == "ping\n") REQUIRE(::write(pair[0], "pong\n", 5) == 5);
                  if (echoed == "ping\npong\n") ::shutdown(pair[0], SHUT_WR);  // stdin's end
                },
                std::chrono::steady_clock::now() + std::chrono::seconds(10)};
  r.stdinStream = pair[1];
  auto outcome = execInPod(config.endpoint, r);
  ::close(pair[0]);
  ::close(pair[1]);
  REQUIRE_MESSAGE(outcome.ok(), outcome.error().message);
  CHECK(outcome->finished);
  CHECK(outcome->exitCode == 0);
  CHECK(echoed == "ping\npong\n");
  CHECK(deletePod(*config.transport, config.endpoint, "ci", plan.podName).ok());
  c.checkNoPodLeft();
}
