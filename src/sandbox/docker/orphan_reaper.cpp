#include "sandbox/docker/orphan_reaper.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "sandbox/docker/engine_client.h"

namespace lw::sandbox::docker {
namespace {

// These run in the forked child: system calls only, no allocation.
void removeOnce(const sockaddr_un& addr, const char* request, size_t length) {
  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (s < 0) return;
  timeval tv{10, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (::connect(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) {
    size_t sent = 0;
    while (sent < length) {
      ssize_t w = ::write(s, request + sent, length - sent);
      if (w <= 0) break;
      sent += static_cast<size_t>(w);
    }
    // Wait for the answer: the engine finishes the removal before replying.
    char buf[512];
    while (sent == length && ::read(s, buf, sizeof buf) > 0) {}
  }
  ::close(s);
}

[[noreturn]] void watchdog(int readFd, int maxFd, const sockaddr_un& addr, const char* request, size_t length) {
  // Its own session: a Ctrl-C sent to the terminal's process group must not
  // take the watchdog down with the orchestrator.
  ::setsid();
  // An engine that hangs up early must not kill the watchdog before its retry.
  ::signal(SIGPIPE, SIG_IGN);
  // Hold nothing of the parent's open: another pipe kept open here would
  // hide the parent's death from whoever waits on it.
  for (int fd = 0; fd < maxFd; ++fd)
    if (fd != readFd) ::close(fd);
  char byte = 0;
  ssize_t n;
  do {
    n = ::read(readFd, &byte, 1);
  } while (n < 0 && errno == EINTR);
  if (n == 1) ::_exit(0);  // the parent removed the container itself
  // The parent may have died while its create request was in flight: the
  // engine can finish that create after a first DELETE, so ask twice.
  removeOnce(addr, request, length);
  timespec pause{2, 0};
  while (::nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
  removeOnce(addr, request, length);
  ::_exit(0);
}

}  // namespace

Result<OrphanReaper> OrphanReaper::watch(const std::string& socketPath, const std::string& containerName) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socketPath.size() >= sizeof addr.sun_path)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "Docker socket path is too long for a unix socket address: " + socketPath, {}, "docker");
  std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
  // "Connection: close" so the engine ends the exchange and the read above returns.
  const std::string request = "DELETE " + std::string(kApiPrefix) + "/containers/" + containerName +
                              "?force=1&v=1 HTTP/1.1\r\nHost: docker\r\nContent-Length: 0\r\n"
                              "Connection: close\r\n\r\n";
  int fds[2];
  if (::pipe(fds) != 0)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     std::string("pipe for the container watchdog: ") + std::strerror(errno), {}, "docker");
  // No step or other exec'd child may hold either end.
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  const long openMax = ::sysconf(_SC_OPEN_MAX);
  const int maxFd = openMax > 0 && openMax < 65536 ? static_cast<int>(openMax) : 65536;
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return makeError(ErrorCode::SandboxLaunchFailed,
                     std::string("fork for the container watchdog: ") + std::strerror(e), {}, "docker");
  }
  if (pid == 0) watchdog(fds[0], maxFd, addr, request.c_str(), request.size());
  ::close(fds[0]);
  return OrphanReaper(pid, fds[1]);
}

OrphanReaper::OrphanReaper(OrphanReaper&& other) noexcept : pid_(other.pid_), fd_(other.fd_), removed_(other.removed_) {
  other.pid_ = -1;
  other.fd_ = -1;
}

OrphanReaper::~OrphanReaper() {
  if (fd_ >= 0) {
    if (removed_) {
      const char byte = 1;
      (void)!::write(fd_, &byte, 1);
    }
    ::close(fd_);  // without the byte: the watchdog removes the container
  }
  if (pid_ > 0) {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
  }
}

}  // namespace lw::sandbox::docker
