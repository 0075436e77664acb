// A watchdog per container, for the one path RAII cannot cover: this process
// dying without unwinding (SIGKILL, an unhandled SIGINT). A forked child in
// its own session waits on a pipe; when the pipe closes without a "removed"
// byte, it force-removes the container itself over the engine's socket.
// The child only makes system calls (the request is formatted before the
// fork), so forking a multi-threaded process is safe.
#pragma once

#include <sys/types.h>

#include <string>

#include "core/result.h"

namespace lw::sandbox::docker {

class OrphanReaper {
 public:
  // Forks the watchdog for the container named `containerName` (an ID or a
  // name) on `socketPath`. Started before the container is created, so that
  // no moment exists where a container has no watchdog. Fails with
  // SANDBOX_LAUNCH_FAILED when the socket path is too long or fork fails.
  static Result<OrphanReaper> watch(const std::string& socketPath, const std::string& containerName);

  OrphanReaper(OrphanReaper&& other) noexcept;
  OrphanReaper& operator=(OrphanReaper&&) = delete;
  OrphanReaper(const OrphanReaper&) = delete;
  ~OrphanReaper();

  // The container is gone: the watchdog exits without doing anything.
  void containerRemoved() { removed_ = true; }
  pid_t pid() const { return pid_; }

 private:
  OrphanReaper(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  pid_t pid_ = -1;
  int fd_ = -1;  // write end; closing it without a byte means "remove it"
  bool removed_ = false;
};

}  // namespace lw::sandbox::docker
