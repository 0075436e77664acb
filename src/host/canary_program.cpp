#include "host/canary_program.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/executables.h"

namespace lw::host {
namespace {

int blocked(const std::string& what, int err) {
  std::printf("blocked: %s: %s\n", what.c_str(), err != 0 ? std::strerror(err) : "refused");
  return kCanaryBlocked;
}
int escaped(const std::string& what) {
  std::printf("ESCAPED: %s\n", what.c_str());
  return kCanaryEscaped;
}
int setup(const std::string& what) {
  std::printf("setup: %s\n", what.c_str());
  return kCanarySetup;
}

std::string slurp(const std::string& path, bool& opened) {
  std::ifstream in(path);
  opened = static_cast<bool>(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int readCase(const std::vector<std::string>& a) {
  if (a.size() < 2) return setup("read needs SECRET PATH…");
  for (std::size_t i = 1; i < a.size(); ++i) {
    bool opened = false;
    std::string text = slurp(a[i], opened);
    if (opened && text.find(a[0]) != std::string::npos) return escaped("read " + a[i]);
  }
  return blocked("reading the denied paths", EACCES);
}

bool writeFile(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | flags, 0644);
  if (fd < 0) return false;
  bool ok = ::write(fd, "canary\n", 7) == 7;
  ::close(fd);
  return ok;
}

int writeOutside(const std::vector<std::string>& a) {
  if (a.size() != 2) return setup("write-outside needs OUT IN");
  if (writeFile(a[0], O_CREAT | O_TRUNC)) return escaped("wrote " + a[0]);
  int err = errno;
  if (!writeFile(a[1], O_CREAT | O_TRUNC)) return setup("the workspace is not writable either: " + a[1]);
  return blocked("write " + a[0], err);
}

int writeProtected(const std::vector<std::string>& a) {
  if (a.size() != 2) return setup("write-protected needs PROT TMP");
  const std::string& prot = a[0];
  if (writeFile(prot, O_TRUNC)) return escaped("truncated " + prot);
  int err = errno;
  if (!writeFile(a[1], O_CREAT | O_TRUNC)) return setup("the workspace is not writable: " + a[1]);
  if (::rename(a[1].c_str(), prot.c_str()) == 0) return escaped("renamed a file over " + prot);
  if (::unlink(prot.c_str()) == 0) return escaped("removed " + prot);
  return blocked("write, rename over and remove " + prot, err);
}

// A TCP connect bounded by one second; returns 0 or the errno.
int tcpConnect(const std::string& ip, int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, ip.c_str(), &addr.sin_addr) != 1) return EINVAL;
  int s = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s < 0) return errno;
  int err = 0;
  if (::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    err = errno;
    if (err == EINPROGRESS) {
      pollfd p{s, POLLOUT, 0};
      if (::poll(&p, 1, 1000) != 1) {
        err = ETIMEDOUT;
      } else {
        socklen_t len = sizeof err;
        ::getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
      }
    }
  }
  ::close(s);
  return err;
}

int loopback() {
  int srv = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (srv < 0) return setup(std::string("socket: ") + std::strerror(errno));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(srv, 1) != 0 ||
      ::getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    return setup(std::string("listen on 127.0.0.1: ") + std::strerror(errno));
  int err = tcpConnect("127.0.0.1", ntohs(a.sin_port));
  ::close(srv);
  if (err != 0) return setup(std::string("connect to our own 127.0.0.1: ") + std::strerror(err));
  std::printf("loopback round trip ok\n");
  return 0;
}

// The daemon's own loop: its pid on the first line of BEAT, then a byte
// every 20 ms until BEAT's directory is gone (whoever started it is done with
// it, and a daemon no cleanup caught must not beat forever).
int daemonBeat(const std::string& beat) {
  const std::string pidLine = std::to_string(::getpid()) + "\n";
  for (bool first = true;; first = false) {
    int fd = ::open(beat.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT) ::_exit(0);
    if (fd >= 0) {
      (void)!(first ? ::write(fd, pidLine.data(), pidLine.size()) : ::write(fd, ".", 1));
      ::close(fd);
    }
    ::usleep(20000);
  }
}

// The hardest daemon the POSIX launcher claims to end (its tree is found by
// the mark every descendant inherits, src/sandbox/process/posix/tree_mark.h):
// the middle process calls setsid, forks and exits at once, so the daemon is
// re-parented before anyone can have seen its parent; the daemon calls setsid
// again (no session or group left that a tree process created) and runs a
// program anew (loopwright, with the environment it inherited). If it cannot
// run it, it writes nothing, and the canary says it could not run.
int daemon(const std::string& beat) {
  const std::string self = runningExecutable().string();
  if (self.empty()) return setup("the running executable is unknown");
  std::vector<std::string> args = {self, "qualify", "--canary", "daemon-beat", "--", beat};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t p = ::fork();
  if (p < 0) return setup("fork");
  if (p == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    ::setsid();
    const int devNull = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) devNull >= 0 ? ::dup2(devNull, fd) : ::close(fd);
    ::execv(self.c_str(), argv.data());
    ::_exit(127);
  }
  ::waitpid(p, nullptr, 0);
  for (int i = 0; i < 300; ++i) {  // return once the daemon is seen running
    struct stat st {};
    if (::stat(beat.c_str(), &st) == 0 && st.st_size > 0) {
      std::printf("daemon started\n");
      return 0;
    }
    ::usleep(10000);
  }
  return setup("the daemon never wrote " + beat);
}

int seccompCase() {
  bool opened = false;
  std::string status = slurp("/proc/self/status", opened);
  auto at = status.find("Seccomp:");
  if (at == std::string::npos) return setup("no Seccomp line in /proc/self/status");
  int mode = std::atoi(status.c_str() + at + 8);
  if (mode != 2) return escaped("no seccomp filter installed (Seccomp: " + std::to_string(mode) + ")");
  // keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0): harmless and
  // allowed without a filter; every loopwright filter refuses it.
  long rc = ::syscall(SYS_keyctl, 0L, -3L, 0L);
  if (rc >= 0) return escaped("keyctl(2) allowed under the filter");
  return blocked("keyctl under a seccomp filter", errno);
}

// Sets the mode and owner a path already has: allowed only where metadata
// outside the writable paths can change.
int metadataCase(const std::vector<std::string>& a) {
  if (a.size() != 1) return setup("metadata needs PATH");
  struct stat st {};
  if (::stat(a[0].c_str(), &st) != 0) return setup("stat " + a[0] + ": " + std::strerror(errno));
  if (::chmod(a[0].c_str(), st.st_mode & 07777) == 0) return escaped("chmod " + a[0]);
  int err = errno;
  if (::chown(a[0].c_str(), static_cast<uid_t>(-1), static_cast<gid_t>(-1)) == 0) return escaped("chown " + a[0]);
  return blocked("chmod and chown " + a[0], err);
}

int hostProcessCase(const std::vector<std::string>& a) {
  if (a.size() != 1) return setup("host-process needs PID");
  const int pid = std::atoi(a[0].c_str());
  bool opened = false;
  std::string cmdline = slurp("/proc/" + a[0] + "/cmdline", opened);
  if (opened && cmdline.find("qualify") != std::string::npos) return escaped("read the command line of pid " + a[0]);
  rlimit old{};
  // A pid namespace numbers its own processes from 1, and a step has a few:
  // a low pid there is not the host's.
  if (pid > 64 && ::prlimit(pid, RLIMIT_CORE, nullptr, &old) == 0) return escaped("read the limits of pid " + a[0]);
  return blocked("host process " + a[0], errno);
}

}  // namespace

int runCanary(const std::string& name, const std::vector<std::string>& a) {
  int rc = kCanarySetup;
  if (name == "read")
    rc = readCase(a);
  else if (name == "write-outside")
    rc = writeOutside(a);
  else if (name == "write-protected")
    rc = writeProtected(a);
  else if (name == "connect" || name == "connect-ok") {
    if (a.size() != 2) return setup(name + " needs IP PORT");
    int err = tcpConnect(a[0], std::atoi(a[1].c_str()));
    if (name == "connect")
      rc = err == 0 ? escaped("connected to " + a[0] + ":" + a[1]) : blocked("connect " + a[0] + ":" + a[1], err);
    else
      rc = err == 0 ? (std::printf("connected to %s:%s\n", a[0].c_str(), a[1].c_str()), 0)
                    : setup("connect " + a[0] + ":" + a[1] + ": " + std::strerror(err));
  } else if (name == "loopback")
    rc = loopback();
  else if (name == "daemon")
    rc = a.size() == 1 ? daemon(a[0]) : setup("daemon needs BEAT");
  else if (name == "daemon-beat")
    rc = a.size() == 1 ? daemonBeat(a[0]) : setup("daemon-beat needs BEAT");
  else if (name == "seccomp")
    rc = seccompCase();
  else if (name == "metadata")
    rc = metadataCase(a);
  else if (name == "host-process")
    rc = hostProcessCase(a);
  else
    rc = setup("unknown canary '" + name + "'");
  std::fflush(stdout);
  return rc;
}

}  // namespace lw::host
