#include "sandbox/process/posix/posix_launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <optional>

#include "sandbox/process/executable.h"
#include "sandbox/process/posix/posix_process.h"
#include "sandbox/process/posix/tree_mark.h"

namespace lw::sandbox::process::posix {
namespace {

#if !defined(POSIX_SPAWN_SETSID)
#error "POSIX_SPAWN_SETSID is needed (glibc 2.26, macOS 10.15 and later have it)"
#endif

// Descriptors are lifted above every target number before the file actions
// place them, so that placing one never overwrites another's source.
constexpr int kLiftedFloor = 64;

std::optional<Error> refusedRequest(const SpawnRequest& req) {
  if (req.argv.empty())
    return makeError(ErrorCode::SandboxLaunchFailed, "no command to run", "give the step a command");
  if (!req.childSetup.empty() || !req.supervisorSetup.empty() || req.stepIsPidNamespaceInit)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "the POSIX launcher cannot run setup steps in the child (" +
                         (req.childSetup.empty() ? std::string("pid namespace") : req.childSetup.front().what) + ")",
                     "this backend needs the Linux launcher", req.argv[0]);
  if (req.extraFds.size() > 4)
    return makeError(ErrorCode::SandboxLaunchFailed, "too many descriptors to pass to the child",
                     "pass at most 4 extra descriptors", req.argv[0]);
  return std::nullopt;
}

// posix_spawn's attributes and file actions, released with it.
struct SpawnSetup {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  std::vector<UniqueFd> lifted;
  SpawnSetup() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// New session, default signal dispositions, empty mask, and (macOS) every
// descriptor not placed by a file action closed.
int setAttributes(SpawnSetup& s) {
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  short flags = POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
#if defined(POSIX_SPAWN_CLOEXEC_DEFAULT)
  flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
  if (int rc = posix_spawnattr_setflags(&s.attr, flags)) return rc;
  if (int rc = posix_spawnattr_setsigdefault(&s.attr, &all)) return rc;
  return posix_spawnattr_setsigmask(&s.attr, &none);
}

// Places each source at its number (0, 1, 2, 3…); closes the rest on Linux.
int placeDescriptors(SpawnSetup& s, const std::vector<std::pair<int, int>>& layout, const std::string& cwd) {
  for (const auto& [source, target] : layout) {
    UniqueFd lifted(::fcntl(source, F_DUPFD_CLOEXEC, kLiftedFloor));
    if (!lifted) return errno;
    if (int rc = posix_spawn_file_actions_adddup2(&s.actions, lifted.get(), target)) return rc;
    s.lifted.push_back(std::move(lifted));
  }
#if !defined(POSIX_SPAWN_CLOEXEC_DEFAULT)
  // Descriptors opened without O_CLOEXEC by another thread or a library.
  if (int rc = posix_spawn_file_actions_addclosefrom_np(&s.actions, static_cast<int>(layout.size()))) return rc;
#endif
  if (!cwd.empty())
    if (int rc = posix_spawn_file_actions_addchdir_np(&s.actions, cwd.c_str())) return rc;
  return 0;
}

// The first candidate posix_spawn can execute; nullopt with `err` set
// (EACCES when one existed but was refused, else the last error).
std::optional<pid_t> spawnFirstCandidate(const std::vector<std::string>& candidates, SpawnSetup& s, char* const* argv,
                                         char* const* envp, int& err) {
  err = ENOENT;
  bool refused = false;
  for (const std::string& c : candidates) {
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, c.c_str(), &s.actions, &s.attr, argv, envp);
    if (rc == 0) return pid;
    if (rc == EACCES) refused = true;
    if (rc != ENOENT && rc != ENOTDIR && rc != EACCES) {
      err = rc;
      return std::nullopt;
    }
  }
  if (refused) err = EACCES;
  return std::nullopt;
}

// The step's environment with the tree's mark, after the mark this launcher
// itself carries when it runs inside another step (tree_mark.h).
std::map<std::string, std::string> markedEnvironment(const std::map<std::string, std::string>& env,
                                                     const std::string& token) {
  std::map<std::string, std::string> out = env;
  const char* inherited = std::getenv(kTreeMarkVariable);
  out[kTreeMarkVariable] =
      chainedTreeMark(inherited ? std::optional<std::string_view>(inherited) : std::nullopt, token);
  return out;
}

}  // namespace

Result<std::unique_ptr<RunningProcess>> spawnPosix(const SpawnRequest& req) {
  const auto started = std::chrono::steady_clock::now();
  if (auto refused = refusedRequest(req)) return *refused;
  UniqueFd outR, outW, errR, errW, devNull;
  if (!makePipe(outR, outW) || !makePipe(errR, errW)) return launchError("pipe", errno, req.argv[0]);
  devNull.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!devNull) return launchError("open /dev/null", errno, req.argv[0]);
  std::vector<std::pair<int, int>> layout{{req.stdinFd.value_or(devNull.get()), 0}, {outW.get(), 1}, {errW.get(), 2}};
  if (req.passFd) layout.emplace_back(*req.passFd, 3);
  for (std::size_t i = 0; i < req.extraFds.size(); ++i) layout.emplace_back(req.extraFds[i], 4 + static_cast<int>(i));
  if (!req.passFd && !req.extraFds.empty()) layout.emplace_back(devNull.get(), 3);  // no gap at 3

  SpawnSetup setup;
  if (int rc = setAttributes(setup)) return launchError("posix_spawnattr", rc, req.argv[0]);
  if (int rc = placeDescriptors(setup, layout, req.cwd))
    return launchError("posix_spawn file actions", rc, req.argv[0]);

  const std::string stepPath = stepPathOf(req.env);
  const std::vector<std::string> candidates = commandCandidates(req.argv[0], stepPath);
  ExecStrings argv(req.argv);
  const std::string token = newTreeToken();
  ExecStrings envp = ExecStrings::environment(markedEnvironment(req.env, token));
  int err = 0;
  const auto pid = spawnFirstCandidate(candidates, setup, argv.get(), envp.get(), err);
  if (!pid) {
    if (candidates.size() == 1 && candidates.front() == req.argv[0])
      return launchError("posix_spawn " + req.argv[0], err, req.argv[0]);
    return commandNotFound(req.argv[0], stepPath, err);
  }
  outW.reset();
  errW.reset();
  for (UniqueFd* f : {&outR, &errR}) ::fcntl(f->get(), F_SETFL, O_NONBLOCK);
  return std::unique_ptr<RunningProcess>(
      std::make_unique<PosixProcess>(*pid, token, std::move(outR), std::move(errR), req, started));
}

}  // namespace lw::sandbox::process::posix
