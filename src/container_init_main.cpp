// `loopwright-container-init`: the entrypoint of a docker step, bound into
// the container read-only and linked statically (the image brings no C
// library we could rely on). It gives a container step what the other
// backends give theirs: the bridge as an already-connected descriptor 3 and
// loopwright's seccomp filter, under which no new socket can be opened. A
// container cannot be handed a descriptor, so the bridge comes as a socket
// path; connecting before the filter is what makes every other path-named
// socket in the view unreachable (docs/security-model.md).
//
// It is also the first process of a step whose networkMode is allow-list
// (docs/egress.md), on every backend that runs one: the egress relay
// (egress/step_relay.h), which listens in the step's network namespace and
// runs the step's command beside it.
//
// On k8s-pod it is also the pod's end of the step's bridge: with
// `--bridge-listen SOCKET` it accepts the one connection the step's own init
// makes and relays it over its stdin and stdout, which the runner joins to
// the bridge (sandbox/k8s/pod_bridge_relay.h). With `--egress-listen DIR`
// and `--egress-connect SOCKET` it is the pod's end of an allow-list step's
// egress (sandbox/k8s/pod_egress_relay.h).
//
// usage: loopwright-container-init FILTER -- CMD [ARGS...]
//        loopwright-container-init --egress-relay SOCKET -- CMD [ARGS...]
//        loopwright-container-init --bridge-listen SOCKET
//        loopwright-container-init --egress-listen DIR | --egress-connect SOCKET
//   FILTER  the compiled filter (struct sock_filter[], native byte order)
//   LOOPWRIGHT_BRIDGE=/path/to/socket  connect it to fd 3, then set fd:3
// Any failure: a line on stderr, exit 127, the step never starts.
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "egress/step_relay.h"
#include "sandbox/k8s/pod_bridge_relay.h"
#include "sandbox/k8s/pod_egress_relay.h"

namespace {

[[noreturn]] void fail(const char* what, int err) {
  std::fprintf(stderr, "loopwright-container-init: %s: %s\n", what, std::strerror(err));
  std::exit(127);
}

// The bridge, connected at fd 3 (or fd 3 closed when the step has none).
void connectBridge() {
  const char* bridge = std::getenv("LOOPWRIGHT_BRIDGE");
  if (bridge == nullptr || bridge[0] != '/') {
    ::close(3);
    return;
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(bridge) >= sizeof addr.sun_path) fail("LOOPWRIGHT_BRIDGE", ENAMETOOLONG);
  std::strcpy(addr.sun_path, bridge);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket for the bridge", errno);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) fail(bridge, errno);
  if (fd != 3 && ::dup2(fd, 3) != 3) fail("dup2 of the bridge", errno);
  if (fd != 3) ::close(fd);
  ::fcntl(3, F_SETFD, 0);  // dup2 cleared it; fd 3 itself must survive exec
  ::setenv("LOOPWRIGHT_BRIDGE", "fd:3", 1);
}

void installFilter(const char* path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, errno);
  std::vector<sock_filter> code;
  sock_filter ins;
  for (;;) {
    ssize_t n = ::read(fd, &ins, sizeof ins);
    if (n == 0) break;
    if (n != static_cast<ssize_t>(sizeof ins)) fail("reading the filter", n < 0 ? errno : EINVAL);
    code.push_back(ins);
  }
  ::close(fd);
  if (code.empty()) fail("the filter is empty", EINVAL);
  sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("no-new-privileges", errno);
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) fail("seccomp", errno);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--bridge-listen") == 0)
    return lw::sandbox::k8s::relayOneBridgeConnection(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--egress-listen") == 0)
    return lw::sandbox::k8s::listenForEgress(argv[2], lw::egress::kRelayPort);
  if (argc == 3 && std::strcmp(argv[1], "--egress-connect") == 0)
    return lw::sandbox::k8s::carryEgressConnection(argv[2]);
  if (argc >= 5 && std::strcmp(argv[1], "--egress-relay") == 0 && std::strcmp(argv[3], "--") == 0)
    return lw::egress::runWithRelay(argv[2], lw::egress::kRelayPort, std::vector<std::string>(argv + 4, argv + argc));
  if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
    std::fprintf(stderr, "usage: loopwright-container-init FILTER -- CMD [ARGS...]\n");
    return 127;
  }
  connectBridge();
  installFilter(argv[1]);
  ::execvp(argv[3], argv + 3);
  fail(argv[3], errno);
}
