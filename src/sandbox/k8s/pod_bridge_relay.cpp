#include "sandbox/k8s/pod_bridge_relay.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace lw::sandbox::k8s {
namespace {

int failed(const std::string& what, int err) {
  std::fprintf(stderr, "loopwright-container-init: %s: %s\n", what.c_str(), std::strerror(err));
  return 127;
}

// Every byte to `fd` (send without SIGPIPE when it is the connection).
bool writeAll(int fd, const char* data, std::size_t size, bool socket) {
  while (size > 0) {
    const ssize_t n = socket ? ::send(fd, data, size, MSG_NOSIGNAL) : ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Blocks until one of `fds` is ready; false on an error other than EINTR.
bool pollBoth(pollfd (&fds)[2]) {
  for (;;) {
    if (::poll(fds, 2, -1) >= 0) return true;
    if (errno != EINTR) return false;
  }
}

// The one connection, with what stdin sent before it came (the runner
// speaks second on the bridge, so normally nothing); -1 when stdin ended first.
int acceptOne(int listener, std::string& early) {
  pollfd fds[2] = {{listener, POLLIN, 0}, {0, POLLIN, 0}};
  char buffer[4096];
  while (pollBoth(fds)) {
    if (fds[0].revents != 0) return ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fds[1].revents == 0) continue;
    const ssize_t n = ::read(0, buffer, sizeof buffer);
    if (n <= 0 || early.size() > (std::size_t{1} << 20)) return -1;
    early.append(buffer, static_cast<std::size_t>(n));
  }
  return -1;
}

}  // namespace

void relayOverStdio(int connection) {
  pollfd fds[2] = {{connection, POLLIN, 0}, {0, POLLIN, 0}};
  char buffer[32768];
  while (pollBoth(fds)) {
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n <= 0) return;  // the step closed the bridge, or the runner ended the relay
      if (!writeAll(i == 0 ? 1 : connection, buffer, static_cast<std::size_t>(n), i == 1)) return;
    }
  }
}

int relayOneBridgeConnection(const char* socketPath) {
  ::signal(SIGPIPE, SIG_IGN);  // the runner gone: a failed write, not a silent death
  const std::string path = socketPath;
  const std::string dir = path.substr(0, path.rfind('/'));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path[0] != '/' || dir.empty() || path.size() >= sizeof address.sun_path)
    return failed(path, ENAMETOOLONG);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  // A directory of its own, made here: nothing else can have put a socket or a link in its place.
  if (::mkdir(dir.c_str(), 0700) != 0) return failed(dir, errno);
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return failed("socket", errno);
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return failed(path, errno);
  if (::listen(listener, 1) != 0) return failed("listen", errno);
  std::fprintf(stderr, "%s\n", kBridgeRelayReady);
  std::fflush(stderr);
  std::string early;
  const int connection = acceptOne(listener, early);
  // Exactly one: no second connection can reach the bridge once the step's init holds it.
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
  ::close(listener);
  if (connection < 0) return 1;
  if (writeAll(connection, early.data(), early.size(), true)) relayOverStdio(connection);
  ::close(connection);
  return 0;
}

}  // namespace lw::sandbox::k8s
