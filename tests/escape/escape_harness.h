// Runs hostile programs (hostile_fixture.cpp) through `loopwright sandbox
// exec`, as root and as the unprivileged user `lwtest` (created when missing
// and running as root), on every backend of escape_backends.h available here.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/model/vocabulary.h"

namespace lw::escape {

struct Runner {
  std::string backend;
  std::optional<uid_t> uid;  // set: run loopwright as this (unprivileged) user
  gid_t gid = 0;
  std::vector<std::string> flags;  // `sandbox exec` flags this backend needs (docker: --image)
  std::string label() const { return backend + (uid ? " as lwtest" : " as root"); }
};

// Every (backend, user) pair this host can run; prints [SKIPPED] lines (or
// fails under CI=true) for the ones it cannot.
std::vector<Runner> runners();

// A runner with the network mode its backend enforces ("none", or
// "allow-outbound" for direct-dedicated, which isolates nothing).
struct NetworkedRunner {
  Runner runner;
  std::string network;
};

// runners() plus direct-dedicated (as root, and as lwtest when running as
// root) where its probe enforces processTreeCleanup: for the attacks on the
// step's own tree, which that backend claims too. With `requireDirect` a
// direct-dedicated runner that does not enforce it prints [SKIPPED] (a
// failure under CI=true); without, it is left out silently.
std::vector<NetworkedRunner> runnersWithDirect(bool requireDirect);

// Whether `loopwright sandbox backends --json`, run as the runner's user,
// reports `capability` enforced: the observation negotiation uses.
bool probeEnforces(const Runner& r, Capability capability);

// Whether that report says the runner's backend enforces network mode
// `mode` ("allow-list").
bool probeEnforcesNetwork(const Runner& r, std::string_view mode);

// Whether that report gives the runner's backend isolation L3 (its probe saw
// the step on another kernel).
bool probeGivesL3(const Runner& r);

// One case's scratch: `ws` (the workspace, read-only unless flags say
// otherwise, holding the hostile binary as ws/hostile), `ws/w` (passed as
// --writable), and `outside` (a host directory not in the view).
struct CaseDirs {
  std::filesystem::path root;
  std::filesystem::path ws;
  std::filesystem::path writable;
  std::filesystem::path outside;
  ~CaseDirs();
};
std::unique_ptr<CaseDirs> makeCase(const Runner& r);

struct ExecResult {
  int status = -1;  // loopwright's exit status
  std::string out;
  std::string err;
  std::string describe() const { return "status " + std::to_string(status) + "\nstdout: " + out + "\nstderr: " + err; }
};

struct ExecOptions {
  std::string network = "none";
  std::vector<std::string> flags;         // extra `sandbox exec` flags
  int inheritFd = -1;                     // left open (not CLOEXEC) for loopwright
  bool background = false;                // start and return at once (pid in `pid`)
  std::vector<std::string> command;       // run instead of the hostile program (attack unused)
  std::optional<std::string> callerPath;  // loopwright's own PATH, instead of the system's
  std::vector<std::string> env;           // more of loopwright's environment ("NAME=value")
};

// `loopwright sandbox exec --backend B --network N --workspace ws --writable
// ws/w FLAGS -- ws/hostile --lw-hostile ATTACK…`, run by fork/exec (not by
// loopwright's own spawn, so the test never cleans up on loopwright's behalf).
ExecResult sandboxExec(const Runner& r, const CaseDirs& c, const std::vector<std::string>& attack,
                       const ExecOptions& o = {}, pid_t* pid = nullptr);

// Waits for a background sandboxExec started with o.background.
ExecResult finish(pid_t pid, const CaseDirs& c);

}  // namespace lw::escape
