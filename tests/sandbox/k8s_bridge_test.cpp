// The bridge carried into a k8s-pod step's pod: the relay
// (`loopwright-container-init --bridge-listen`) on its own, then the backend
// against the local Kubernetes API server with a stand-in for the runner's
// bridge at the other end of the step's socket pair. Observed: the step's
// line reaches the bridge and the answer comes back on fd 3; the relay
// accepts one connection and unlinks its socket, so a second one is refused;
// a relay that never listens fails the launch before the step starts; the
// event reaches the pod; the pod is deleted on every path.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include <boost/json.hpp>

#include "sandbox/k8s/k8s_bridge_relay.h"
#include "sandbox/k8s/k8s_pod_backend.h"
#include "sandbox/k8s/k8s_step_files.h"
#include "sandbox/k8s/pod_bridge_relay.h"
#include "support/k8s_pod_cluster.h"
#include "support/read_file.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::sandbox;
using namespace lw::sandbox::k8s;
namespace json = boost::json;
namespace fs = std::filesystem;
using lw::test::PodCluster;

namespace {

// `loopwright-container-init --bridge-listen SOCKET`, its stdin, stdout and stderr piped.
struct Relay {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;

  explicit Relay(const std::string& socket) {
    int i[2], o[2], e[2];
    REQUIRE(::pipe(i) == 0);
    REQUIRE(::pipe(o) == 0);
    REQUIRE(::pipe(e) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(i[0], 0);
      ::dup2(o[1], 1);
      ::dup2(e[1], 2);
      ::execl(LOOPWRIGHT_CONTAINER_INIT, LOOPWRIGHT_CONTAINER_INIT, "--bridge-listen", socket.c_str(), nullptr);
      ::_exit(126);
    }
    ::close(i[0]);
    ::close(o[1]);
    ::close(e[1]);
    in = i[1];
    out = o[0];
    err = e[0];
  }
  std::string readLine(int fd) const {
    std::string line;
    char c = 0;
    while (::read(fd, &c, 1) == 1 && c != '\n') line.push_back(c);
    return line;
  }
  int exitCode() {
    ::close(in);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(out);
    ::close(err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

// connect(2) to `path`: the connected socket, or -errno.
int connectTo(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
  const int err = errno;
  ::close(fd);
  return -err;
}

// The runner's bridge, stood in for: answers each line it reads with its number.
struct BridgePeer {
  int fds[2] = {-1, -1};
  std::vector<std::string> lines;
  std::thread thread;

  BridgePeer() {
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    thread = std::thread([this] {
      std::string line;
      char c = 0;
      while (::read(fds[0], &c, 1) == 1) {
        if (c != '\n') {
          line.push_back(c);
          continue;
        }
        lines.push_back(line);
        line.clear();
        const std::string answer = "{\"answer\":" + std::to_string(lines.size()) + "}\n";
        (void)!::send(fds[0], answer.data(), answer.size(), MSG_NOSIGNAL);
      }
    });
  }
  int stepEnd() const { return fds[1]; }
  // After launch: the pipeline keeps only its own end.
  void launched() { ::close(std::exchange(fds[1], -1)); }
  std::vector<std::string> finish() {
    thread.join();  // the stream ends when the relay's is cut
    ::close(fds[0]);
    return lines;
  }
};

std::string podEnv(const json::object& pod, const std::string& name) {
  for (const json::value& c : pod.at("spec").at("containers").as_array()) {
    if (c.at("name") != kStepContainer) continue;
    for (const json::value& e : c.at("env").as_array())
      if (e.at("name").as_string() == name) return std::string(e.at("value").as_string());
  }
  return "";
}

}  // namespace

TEST_CASE("k8s bridge relay: one connection relayed both ways then a second is refused and the socket is gone") {
  lw::test::TempDir dir;
  const std::string socket = (dir.root / "bridge" / "bridge.sock").string();
  Relay relay(socket);
  REQUIRE(relay.readLine(relay.err) == kBridgeRelayReady);
  CHECK((fs::status(dir.root / "bridge").permissions() & fs::perms::all) == fs::perms::owner_all);
  const int step = connectTo(socket);
  REQUIRE(step >= 0);
  REQUIRE(::write(step, "{\"q\":1}\n", 8) == 8);
  CHECK(relay.readLine(relay.out) == "{\"q\":1}");
  REQUIRE(::write(relay.in, "{\"a\":1}\n", 8) == 8);
  std::string answer(8, '\0');
  CHECK(::read(step, answer.data(), 8) == 8);
  CHECK(answer == "{\"a\":1}\n");
  // The attack: another connection to the relay's socket once the step's init holds the bridge.
  const int second = connectTo(socket);
  CHECK(second == -ENOENT);
  CHECK_FALSE(fs::exists(dir.root / "bridge"));
  ::close(step);  // the step ended: the relay ends with it
  CHECK(relay.exitCode() == 0);
}

TEST_CASE("k8s bridge relay: refuses to listen where its directory already exists") {
  lw::test::TempDir dir;
  fs::create_directories(dir.root / "bridge");
  Relay relay((dir.root / "bridge" / "bridge.sock").string());
  CHECK(relay.readLine(relay.err).find("bridge: File exists") != std::string::npos);
  CHECK(relay.exitCode() == 127);
}

TEST_CASE("k8s pod backend: the bridge is carried into the pod as fd 3 and the event goes in read-only") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  K8sPodBackend backend(config);
  const std::string event = c.dir.write("event.json", "{\"action\":\"opened\",\"number\":7}");
  // $1 is the relay's socket as the pod sees it (the local runtime maps the argument to its directory).
  StepSpec spec =
      c.step({"sh", "-c",
              "printf '{\"q\":1}\\n' >&3 && read -r a <&3 && printf '%s' \"$a\" > \"$LOOPWRIGHT_OUT/answer\"; "
              "printf '%s' \"$LOOPWRIGHT_BRIDGE\" > \"$LOOPWRIGHT_OUT/bridge-var\"; "
              "if test -e \"$1\"; then echo present; else echo absent; fi > \"$LOOPWRIGHT_OUT/socket\"; "
              "cat \"$LOOPWRIGHT_EVENT\" > \"$LOOPWRIGHT_OUT/event-seen\"",
              "sh", kBridgeSocketInPod});
  spec.env["LOOPWRIGHT_EVENT"] = event;
  BridgePeer bridge;
  spec.passFd = bridge.stepEnd();
  auto run = backend.launch(spec);
  bridge.launched();
  REQUIRE_MESSAGE(run.ok(), run.error().message);
  process::ExitInfo exit = (*run)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  CHECK_MESSAGE(!exit.launchFailure.has_value(), (exit.launchFailure ? exit.launchFailure->message : ""));
  CHECK(exit.status() == 0);
  INFO((*run)->stderrData().data);
  CHECK(bridge.finish() == std::vector<std::string>{"{\"q\":1}"});
  CHECK(lw::test::readFile(c.out / "answer") == "{\"answer\":1}");
  CHECK(lw::test::readFile(c.out / "bridge-var") == "fd:3");
  CHECK(lw::test::readFile(c.out / "socket") == "absent\n");
  CHECK(lw::test::readFile(c.out / "event-seen") == "{\"action\":\"opened\",\"number\":7}");
  const auto created = c.server.createdPods();
  REQUIRE(created.size() == 1);
  const json::object pod = json::parse(created.back()).as_object();
  CHECK(podEnv(pod, "LOOPWRIGHT_BRIDGE") == kBridgeSocketInPod);
  CHECK(podEnv(pod, "LOOPWRIGHT_EVENT") == kEventInPod);
  CHECK(pod.at("spec").at("nodeSelector").at("kubernetes.io/arch").as_string() == runnerArch());
  CHECK(lw::test::restrictedPodSecurityViolations(pod).empty());
  c.checkNoPodLeft();
}

TEST_CASE("k8s pod backend: a bridge relay that never listens fails the launch and the step never starts") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = "/bin/true";  // copied in as the init: it exits without listening
  K8sPodBackend backend(config);
  StepSpec spec = c.step({"sh", "-c", "echo ran > \"$LOOPWRIGHT_OUT/ran\""});
  BridgePeer bridge;
  spec.passFd = bridge.stepEnd();
  auto run = backend.launch(spec);
  bridge.launched();
  REQUIRE_MESSAGE(run.ok(), run.error().message);
  process::ExitInfo exit = (*run)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  REQUIRE(exit.launchFailure.has_value());
  CHECK(exit.launchFailure->code == ErrorCode::SandboxLaunchFailed);
  CHECK_MESSAGE(exit.launchFailure->message.find("the bridge relay in pod ci/") == 0, exit.launchFailure->message);
  CHECK(exit.launchFailure->message.find("it ended before listening") != std::string::npos);
  CHECK(bridge.finish().empty());
  CHECK_FALSE(fs::exists(c.out / "ran"));
  c.checkNoPodLeft();
}

TEST_CASE("k8s pod backend: a bridge relay that does not listen in time fails the launch and is torn down") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = c.dir.write("stuck-init", "#!/bin/sh\nexec sleep 60\n");
  fs::permissions(config.initBinary, fs::perms::owner_exec, fs::perm_options::add);
  config.relayTimeout = std::chrono::milliseconds(1500);
  K8sPodBackend backend(config);
  StepSpec spec = c.step({"sh", "-c", "echo ran > \"$LOOPWRIGHT_OUT/ran\""});
  BridgePeer bridge;
  spec.passFd = bridge.stepEnd();
  const auto started = std::chrono::steady_clock::now();
  auto run = backend.launch(spec);
  bridge.launched();
  REQUIRE_MESSAGE(run.ok(), run.error().message);
  process::ExitInfo exit = (*run)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));  // not the sleep's 60
  REQUIRE(exit.launchFailure.has_value());
  CHECK_MESSAGE(exit.launchFailure->message.find("it did not listen in time") != std::string::npos,
                exit.launchFailure->message);
  CHECK(bridge.finish().empty());
  CHECK_FALSE(fs::exists(c.out / "ran"));
  c.checkNoPodLeft();  // the relay's process too
}

TEST_CASE("k8s pod backend: a step with a bridge is refused before any pod when the init is not installed") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = c.dir.root / "absent" / "loopwright-container-init";
  K8sPodBackend backend(config);
  REQUIRE(backend.probe().available);
  const std::size_t before = c.pods();
  StepSpec spec = c.step({"true"});
  BridgePeer bridge;
  spec.passFd = bridge.stepEnd();
  auto run = backend.launch(spec);
  bridge.launched();
  REQUIRE_FALSE(run.ok());
  CHECK(run.error().code == ErrorCode::SandboxLaunchFailed);
  CHECK(run.error().message.find("loopwright-container-init is not installed") == 0);
  CHECK(c.pods() == before);
  ::shutdown(bridge.fds[0], SHUT_RDWR);
  CHECK(bridge.finish().empty());
}
