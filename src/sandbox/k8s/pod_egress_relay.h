// The pod's end of a k8s-pod step's egress (networkMode allow-list,
// docs/kubernetes.md), run by loopwright-container-init as execs in the
// step's container. The pod's network reaches nothing (the default-deny
// NetworkPolicy) but its loopback, and the run's egress proxy is a unix
// socket on the runner, so each connection the step makes to
// 127.0.0.1:3128 travels to the runner over an exec stream of its own:
//
//  - `--egress-listen DIR` listens on 127.0.0.1:3128 and, for each accepted
//    connection, on a unix socket DIR/N.sock (DIR made 0700 here), and says
//    "N" on its stdout; the runner answers with one exec of
//    `--egress-connect DIR/N.sock`, which is handed the accepted connection
//    (SCM_RIGHTS) and carries its bytes over its stdin and stdout, which the
//    runner joins to a new connection to the proxy (k8s_egress_relay.h).
//    At most kMaxEgressConnections at once (accepted, not yet ended): the
//    next is closed at once. It ends when its stdin ends (the runner's end
//    of the step).
//
// The proxy, its allow-list, address checks and denial records stay on the
// runner; nothing secret enters the pod. Self-contained (POSIX only): it is
// linked statically into the init.
#pragma once

#include <cstddef>

namespace lw::sandbox::k8s {

inline constexpr std::size_t kMaxEgressConnections = 32;
// What the listener writes on stderr once it listens: the step starts after it.
inline constexpr const char* kEgressRelayReady = "loopwright-container-init: the egress relay listens";

// 127 with a line on stderr when it cannot listen; 0 when stdin ended.
int listenForEgress(const char* dir, unsigned short port);

// 127 when the socket or the handed connection is not there; 0 once either
// side ended.
int carryEgressConnection(const char* socketPath);

}  // namespace lw::sandbox::k8s
