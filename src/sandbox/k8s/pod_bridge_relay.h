// The pod's end of a k8s-pod step's bridge, run by loopwright-container-init
// (`--bridge-listen SOCKET`, src/container_init_main.cpp) as an exec in the
// step's container: it listens on SOCKET in a directory of its own, accepts
// exactly ONE connection (the step's init connecting fd 3 before the step
// runs), unlinks the socket and closes the listener, then carries that
// connection's bytes to its stdout and its stdin's bytes to the connection.
// The runner joins its stdin and stdout to the bridge over exec's stream
// (k8s_bridge_relay.h), so the budgets, loop detection and credentials stay
// on the runner; nothing secret enters the pod.
//
// Self-contained (POSIX only): it is linked statically into the init.
#pragma once

namespace lw::sandbox::k8s {

// What the relay writes on stderr once it listens: the runner starts the
// step only after this line.
inline constexpr const char* kBridgeRelayReady = "loopwright-container-init: the bridge relay listens";

// Runs the relay until the connection or stdin ends; 0 then. 127 with a line
// on stderr when it cannot listen (the directory of `socketPath` must not
// exist: it is made 0700 here), and 1 when stdin ended before the step
// connected.
int relayOneBridgeConnection(const char* socketPath);

// `connection`'s bytes to stdout, stdin's to `connection`, until either ends
// (the egress relay's too, pod_egress_relay.h).
void relayOverStdio(int connection);

}  // namespace lw::sandbox::k8s
