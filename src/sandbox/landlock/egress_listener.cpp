#include "sandbox/landlock/egress_listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lw::sandbox::landlock {
namespace {

int listenOnLoopback(unsigned short port) noexcept {
  int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return -errno;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(s, SOMAXCONN) != 0) {
    int e = errno;
    ::close(s);
    return -e;
  }
  return s;
}

int sendDescriptor(int channel, int fd) noexcept {
  char byte = 'L';
  iovec iov{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  return ::sendmsg(channel, &msg, MSG_NOSIGNAL) == 1 ? 0 : errno;
}

}  // namespace

process::ChildSetup handOutEgressListener(int channel, unsigned short port) {
  return process::ChildSetup{"listening for the egress relay", [channel, port]() noexcept {
                               int listener = listenOnLoopback(port);
                               int err = listener < 0 ? -listener : sendDescriptor(channel, listener);
                               if (listener >= 0) ::close(listener);
                               ::close(channel);  // the step keeps no way to loopwright
                               return err;
                             }};
}

Result<int> receiveEgressListener(int channel) {
  char byte = 0;
  iovec iov{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  // The child sent it before its exec, which spawn() has waited for.
  if (::recvmsg(channel, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
    return makeError(
        ErrorCode::SandboxLaunchFailed,
        "linux-landlock: the step did not hand out its egress listener: " + std::string(std::strerror(errno)), {},
        "linux-landlock");
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  if (c == nullptr || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
    return makeError(ErrorCode::SandboxLaunchFailed, "linux-landlock: the egress listener message held no descriptor",
                     {}, "linux-landlock");
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

}  // namespace lw::sandbox::landlock
