// What the docker backend gives on this host, from the engine itself
// (GET /_ping, /version, /info, /networks/bridge) rather than a table.
#pragma once

#include <string>
#include <vector>

#include "sandbox/backend.h"
#include "sandbox/docker/engine_client.h"

namespace lw::sandbox::docker {

struct EngineFacts {
  std::string socketPath;
  bool reachable = false;
  std::string unreachableReason;
  std::string version;                       // Engine "Version", e.g. "20.10.24+dfsg1"
  std::string apiVersion;                    // "1.41"
  std::vector<std::string> securityOptions;  // /info SecurityOptions, "name=seccomp,profile=default"
  bool hasBridgeNetwork = false;
  // Where loopwright-container-init should be, and whether it is there:
  // without it a step gets neither its bridge at fd 3 nor loopwright's filter.
  std::string initBinary;
  bool initInstalled = false;
};

// Pure: the report for these facts. Unavailable without a reachable engine
// or without the container init. Syscall filtering is loopwright's filter
// (absent when the engine shows no seccomp support); allow-outbound only
// partial (the bridge reaches the host's own addresses and cloud metadata).
ProbeReport classifyEngine(const EngineFacts& facts);

// Asks the engine; never fails (an unreachable engine is a fact).
EngineFacts observeEngine(EngineClient& client, const std::string& socketPath);

// Pure: which engine this is ("<socket> <version> api <api>", or
// "<socket> unreachable"), for a qualification's fingerprint.
std::string engineIdentity(const EngineFacts& facts);

// Pure: what an admin must know about this engine's socket (rootful: whoever
// can use it is root-equivalent; rootless: the engine user's privileges);
// nothing for an unreachable engine.
std::vector<std::string> engineNotes(const EngineFacts& facts);

}  // namespace lw::sandbox::docker
