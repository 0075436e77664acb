#include "sandbox/k8s/pod_egress_relay.h"

#include <netinet/in.h>
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
#include <vector>

#include "sandbox/k8s/pod_bridge_relay.h"

namespace lw::sandbox::k8s {
namespace {

int failed(const std::string& what, int err) {
  std::fprintf(stderr, "loopwright-container-init: %s: %s\n", what.c_str(), std::strerror(err));
  return 127;
}

bool unixAddress(const std::string& path, sockaddr_un& address) {
  address = {};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) return false;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  return true;
}

// One accepted connection: waiting for its exec to claim it at `path`,
// then (claimed >= 0) held until that exec ends, so that it still counts.
struct Slot {
  int tcp = -1;
  int listener = -1;
  int claimed = -1;
  std::string path;
};

int listenTcp(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 64) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

int listenUnix(const std::string& path) {
  sockaddr_un address;
  if (!unixAddress(path, address)) return -1;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 1) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void closeSlot(Slot& s) {
  for (int fd : {s.tcp, s.listener, s.claimed})
    if (fd >= 0) ::close(fd);
  if (!s.path.empty()) ::unlink(s.path.c_str());
  s = Slot{};
}

// A new connection on the listener: a slot and its announcement, or closed
// at once beyond the bound (the step sees its connection refused).
void admit(int tcpListener, const std::string& dir, unsigned long& next, std::vector<Slot>& slots) {
  const int tcp = ::accept4(tcpListener, nullptr, nullptr, SOCK_CLOEXEC);
  if (tcp < 0) return;
  if (slots.size() >= kMaxEgressConnections) {
    ::close(tcp);
    return;
  }
  const std::string n = std::to_string(next++);
  Slot s{tcp, listenUnix(dir + "/" + n + ".sock"), -1, dir + "/" + n + ".sock"};
  const std::string line = n + "\n";
  if (s.listener < 0 || ::write(1, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    closeSlot(s);
    return;
  }
  slots.push_back(s);
}

// The exec claiming slot `s`: handed the connection, which this process then closes.
void handOver(Slot& s) {
  const int claimer = ::accept4(s.listener, nullptr, nullptr, SOCK_CLOEXEC);
  if (claimer < 0) return;
  char byte = 0;
  iovec io{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &s.tcp, sizeof(int));
  const bool sent = ::sendmsg(claimer, &m, MSG_NOSIGNAL) == 1;
  ::close(s.tcp);
  ::close(s.listener);
  ::unlink(s.path.c_str());
  s.tcp = s.listener = -1;
  s.path.clear();
  s.claimed = claimer;
  if (!sent) closeSlot(s);
}

bool serve(int tcpListener, const std::string& dir) {
  std::vector<Slot> slots;
  unsigned long next = 0;
  for (;;) {
    std::vector<pollfd> fds{{tcpListener, POLLIN, 0}, {0, POLLIN, 0}};
    for (const Slot& s : slots) fds.push_back({s.claimed >= 0 ? s.claimed : s.listener, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    char buffer[256];
    if (fds[1].revents != 0 && ::read(0, buffer, sizeof buffer) <= 0) break;  // the runner ended the step
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (fds[i + 2].revents == 0) continue;
      if (slots[i].claimed < 0)
        handOver(slots[i]);
      else if (::read(slots[i].claimed, buffer, sizeof buffer) <= 0)
        closeSlot(slots[i]);  // its exec ended
    }
    std::erase_if(slots, [](const Slot& s) { return s.tcp < 0 && s.claimed < 0; });
    if (fds[0].revents != 0) admit(tcpListener, dir, next, slots);
  }
  for (Slot& s : slots) closeSlot(s);
  return true;
}

// The connection slot `socketPath` hands over, or -1.
int claim(int unixConnection) {
  char byte = 0;
  iovec io{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  if (::recvmsg(unixConnection, &m, MSG_CMSG_CLOEXEC) != 1) return -1;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  if (c == nullptr || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) return -1;
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
  return fd;
}

}  // namespace

int listenForEgress(const char* dir, unsigned short port) {
  ::signal(SIGPIPE, SIG_IGN);
  // A directory of its own, made here: nothing else can have put a socket or a link in its place.
  if (dir[0] != '/' || ::mkdir(dir, 0700) != 0) return failed(dir, dir[0] != '/' ? EINVAL : errno);
  const int tcpListener = listenTcp(port);
  if (tcpListener < 0) return failed("127.0.0.1:" + std::to_string(port), errno);
  std::fprintf(stderr, "%s\n", kEgressRelayReady);
  std::fflush(stderr);
  serve(tcpListener, dir);
  ::close(tcpListener);
  ::rmdir(dir);
  return 0;
}

int carryEgressConnection(const char* socketPath) {
  ::signal(SIGPIPE, SIG_IGN);
  sockaddr_un address;
  if (!unixAddress(socketPath, address)) return failed(socketPath, ENAMETOOLONG);
  const int unixConnection = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (unixConnection < 0) return failed("socket", errno);
  if (::connect(unixConnection, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    return failed(socketPath, errno);
  const int connection = claim(unixConnection);
  if (connection < 0) return failed(socketPath, EPROTO);
  relayOverStdio(connection);
  ::close(connection);
  ::close(unixConnection);  // the listener counts the connection until now
  return 0;
}

}  // namespace lw::sandbox::k8s
