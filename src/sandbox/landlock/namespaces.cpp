#include "sandbox/landlock/namespaces.h"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace lw::sandbox::landlock {
namespace {

int writeFile(const char* path, const char* text) noexcept {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  std::size_t len = std::strlen(text);
  ssize_t n = write(fd, text, len);
  int err = n == static_cast<ssize_t>(len) ? 0 : (n < 0 ? errno : EIO);
  close(fd);
  return err;
}

int bringLoopbackUp() noexcept {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return errno;
  ifreq req{};
  std::memcpy(req.ifr_name, "lo", 3);
  int err = 0;
  if (ioctl(s, SIOCGIFFLAGS, &req) != 0) {
    err = errno;
  } else {
    req.ifr_flags = static_cast<short>(req.ifr_flags | IFF_UP);
    if (ioctl(s, SIOCSIFFLAGS, &req) != 0) err = errno;
  }
  close(s);
  return err;
}

}  // namespace

PreparedNamespaces::PreparedNamespaces(uid_t uid, gid_t gid, Which which) : which_(which) {
  std::snprintf(uidMap_, sizeof uidMap_, "%u %u 1\n", uid, uid);
  std::snprintf(gidMap_, sizeof gidMap_, "%u %u 1\n", gid, gid);
}

int PreparedNamespaces::enter() const noexcept {
  int flags = (which_.user ? CLONE_NEWUSER : 0) | (which_.ipc ? CLONE_NEWIPC : 0) | (which_.mount ? CLONE_NEWNS : 0) |
              (which_.network ? CLONE_NEWNET : 0) | (which_.pid ? CLONE_NEWPID : 0);
  if (unshare(flags) != 0) return errno;
  if (!which_.user) return which_.network ? bringLoopbackUp() : 0;
  // setgroups must be denied before an unprivileged gid_map write
  // (user_namespaces(7)); supplementary groups are kept, unmapped.
  if (int e = writeFile("/proc/self/setgroups", "deny"); e != 0) return e;
  if (int e = writeFile("/proc/self/gid_map", gidMap_); e != 0) return e;
  if (int e = writeFile("/proc/self/uid_map", uidMap_); e != 0) return e;
  if (which_.network) return bringLoopbackUp();
  return 0;
}

process::ChildSetup enterNamespaces(uid_t uid, gid_t gid, PreparedNamespaces::Which which) {
  auto ns = std::make_shared<const PreparedNamespaces>(uid, gid, which);
  return process::ChildSetup{"entering user namespaces", [ns] { return ns->enter(); }};
}

}  // namespace lw::sandbox::landlock
