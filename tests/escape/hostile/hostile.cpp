// The hostile programs of the escape suite, one static executable: the suite
// links it into each case's workspace and runs it in the sandbox as
// `hostile --lw-hostile ATTACK ARGS…`. Linked statically so that it runs in a
// container image without a C library as on the host. Exit status: 0 the
// attempt was blocked, 1 it succeeded (an escape), 2 the attack could not be
// set up.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

int blocked(const std::string& what, int err) {
  std::printf("blocked: %s: %s\n", what.c_str(), std::strerror(err));
  return 0;
}
int escaped(const std::string& what) {
  std::printf("ESCAPED: %s\n", what.c_str());
  return 1;
}

int tryWrite(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return blocked("open " + path, errno);
  ssize_t n = ::write(fd, "pwned\n", 6);
  int e = errno;
  ::close(fd);
  return n == 6 ? escaped("wrote " + path) : blocked("write " + path, e);
}

int writeEach(const std::vector<std::string>& paths) {
  int rc = 0;
  for (const auto& p : paths) rc |= tryWrite(p);
  return rc;
}

int symlinkWrite(const std::string& dir, const std::string& target) {
  std::string link = dir + "/link-" + std::to_string(::getpid());
  if (::symlink(target.c_str(), link.c_str()) != 0) return blocked("symlink", errno);
  return tryWrite(link);
}

int renameParent(const std::string& parent, const std::string& child, const std::string& moved) {
  if (::rename(parent.c_str(), moved.c_str()) != 0) return blocked("rename " + parent, errno);
  ::mkdir(parent.c_str(), 0755);
  ::mkdir((parent + "/" + child).c_str(), 0755);
  int rc = tryWrite(parent + "/" + child + "/evil");
  return rc == 0 ? escaped("renamed the parent of a protected path: " + parent) : rc;
}

int hardlink(const std::string& file, const std::string& link) {
  if (::link(file.c_str(), link.c_str()) != 0) return blocked("link " + file, errno);
  return tryWrite(link) == 1 ? 1 : escaped("hardlinked a protected file (" + link + ")");
}

int symlinkSwap(const std::string& dir, const std::string& prot) {
  std::string tmp = dir + "/swap";
  ::symlink("/tmp", tmp.c_str());
  if (::rename(tmp.c_str(), prot.c_str()) == 0) return escaped("replaced " + prot + " by a symlink");
  int e = errno;
  std::string viaLink = dir + "/via";
  ::symlink(prot.c_str(), viaLink.c_str());
  int rc = tryWrite(viaLink + "/evil");
  return rc != 0 ? rc : blocked("rename over " + prot, e);
}

int readSecret(const std::string& path, const std::string& secret) {
  std::ifstream in(path);
  if (!in) return blocked("open " + path, errno);
  std::stringstream s;
  s << in.rdbuf();
  return s.str().find(secret) != std::string::npos ? escaped("read " + path) : blocked("read " + path + " (masked)", 0);
}

int inheritedFds() {
  int rc = 0;
  for (int fd = 3; fd < 1024; ++fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) continue;
    std::printf("open descriptor %d (mode %o)\n", fd, st.st_mode);
    if (::write(fd, "pwned\n", 6) == 6) rc = escaped("wrote through inherited fd " + std::to_string(fd));
  }
  return rc == 0 ? blocked("no inherited descriptor", EBADF) : rc;
}

int connectUnix(const std::string& path, bool abstract) {
  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (s < 0) return blocked("socket(AF_UNIX)", errno);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::size_t off = abstract ? 1 : 0;
  std::memcpy(a.sun_path + off, path.data(), std::min(path.size(), sizeof a.sun_path - 1 - off));
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + off + path.size());
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), len) != 0) return blocked("connect " + path, errno);
  return escaped(std::string("connected to the host's ") + (abstract ? "abstract" : "unix") + " socket " + path);
}

int connectTcp(int port) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return blocked("socket(AF_INET)", errno);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return blocked("connect 127.0.0.1", errno);
  return escaped("connected to the host's 127.0.0.1:" + std::to_string(port));
}

int udpOut(int hostPort) {
  int s = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0) return blocked("socket(AF_INET, SOCK_DGRAM)", errno);
  int rc = 0;
  for (const char* ip : {"127.0.0.1", "8.8.8.8"}) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(std::strcmp(ip, "8.8.8.8") == 0 ? 53 : hostPort));
    ::inet_pton(AF_INET, ip, &a.sin_addr);
    // Sending to our own loopback is not an escape; the host's listener
    // decides that. A route out is.
    if (::sendto(s, "pwned", 5, 0, reinterpret_cast<sockaddr*>(&a), sizeof a) == 5 && std::strcmp(ip, "8.8.8.8") == 0) {
      rc = escaped("sent UDP to 8.8.8.8");
    }
  }
  return rc == 0 ? blocked("udp out", ENETUNREACH) : rc;
}

int rawSockets() {
  struct Try {
    int family, type, proto;
    const char* name;
  };
  int rc = 0;
  for (Try t : {Try{AF_INET, SOCK_RAW, IPPROTO_ICMP, "raw icmp"}, Try{AF_INET6, SOCK_RAW, IPPROTO_ICMPV6, "raw icmpv6"},
                Try{AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, "netlink route"}, Try{AF_PACKET, SOCK_RAW, 0, "packet"}}) {
    int s = ::socket(t.family, t.type, t.proto);
    if (s >= 0)
      rc = escaped(std::string("opened a ") + t.name + " socket");
    else
      blocked(t.name, errno);
  }
  return rc;
}

int tiocsti() {
  int rc = 0;
  std::vector<int> fds = {0, 1, 2};
  int tty = ::open("/dev/tty", O_RDWR);
  if (tty >= 0) fds.push_back(tty);
  char c = 'x';
  for (int fd : fds) {
    for (unsigned long cmd : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCSTI) | (1UL << 32)}) {
      if (::syscall(SYS_ioctl, fd, cmd, &c) == 0) rc = escaped("TIOCSTI on fd " + std::to_string(fd));
    }
  }
  return rc == 0 ? blocked("TIOCSTI", EPERM) : rc;
}

int hostProcess(int pid) {
  int rc = 0;
  if (::ptrace(PTRACE_ATTACH, pid, nullptr, nullptr) == 0) rc = escaped("ptrace-attached " + std::to_string(pid));
  if (::kill(pid, SIGKILL) == 0) rc = escaped("signalled " + std::to_string(pid));
  ::kill(-1, SIGKILL);  // everything we may signal: only the sandbox, if contained
  return rc == 0 ? blocked("ptrace/kill", ESRCH) : rc;
}

// The environ of the victim (its host pid, as the test knows it) and of
// every process /proc lists. Not a blind walk over pid numbers: under gVisor
// each failed open costs tens of milliseconds, and a pid that /proc does not
// list cannot be opened by number either.
bool environHolds(const std::string& pid, const std::string& secret) {
  std::ifstream in("/proc/" + pid + "/environ");
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  return s.str().find(secret) != std::string::npos;
}

int environOf(const std::string& secret, const std::string& victim) {
  if (!victim.empty() && environHolds(victim, secret)) return escaped("read the environ of pid " + victim);
  DIR* proc = ::opendir("/proc");
  for (dirent* e = proc ? ::readdir(proc) : nullptr; e != nullptr; e = ::readdir(proc)) {
    const std::string name = e->d_name;
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (environHolds(name, secret)) {
      ::closedir(proc);
      return escaped("read the environ of pid " + name);
    }
  }
  if (proc) ::closedir(proc);
  return blocked("another process's environ", ENOENT);
}

int mountAttack(const std::string& ws) {
  int rc = 0;
  if (::mount("tmpfs", "/tmp", "tmpfs", 0, nullptr) == 0) rc = escaped("mounted a tmpfs");
  if (::mount(nullptr, ws.c_str(), nullptr, MS_REMOUNT | MS_BIND, nullptr) == 0)
    rc = escaped("remounted the workspace read-write");
  if (::umount2(ws.c_str(), MNT_DETACH) == 0) rc = escaped("unmounted the workspace");
  return rc == 0 ? blocked("mount/remount/umount", EPERM) : rc;
}

int nestedUserns() {
  if (::unshare(CLONE_NEWUSER) == 0) return escaped("unshare(CLONE_NEWUSER)");
  int e = errno;
  long pid = ::syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
  if (pid == 0) ::_exit(0);
  if (pid > 0) {
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return escaped("clone(CLONE_NEWUSER)");
  }
  return blocked("nested user namespace", e);
}

// Double-forks a setsid daemon that appends to `beat` every 20 ms, then exits.
int daemonize(const std::string& beat, bool parentWaits) {
  pid_t p = ::fork();
  if (p == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    for (;;) {
      int fd = ::open(beat.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        (void)!::write(fd, ".", 1);
        ::close(fd);
      }
      ::usleep(20000);
    }
  }
  ::waitpid(p, nullptr, 0);
  // Return only once the daemon is seen running.
  for (int i = 0; i < 200; ++i) {
    struct stat st {};
    if (::stat(beat.c_str(), &st) == 0 && st.st_size > 0) break;
    ::usleep(10000);
  }
  if (parentWaits) ::pause();
  return blocked("daemon started", 0);
}

int loopbackRoundTrip() {
  int srv = ::socket(AF_INET, SOCK_STREAM, 0);
  if (srv < 0) return 2;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(srv, 1) != 0 ||
      ::getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    return 2;
  int c = ::socket(AF_INET, SOCK_STREAM, 0);
  if (::connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return 2;
  int s = ::accept(srv, nullptr, nullptr);
  char buf[4] = {};
  if (::write(c, "ping", 4) != 4 || ::read(s, buf, 4) != 4 || std::memcmp(buf, "ping", 4) != 0) return 2;
  std::printf("loopback round trip ok\n");
  return 0;
}

// Mode, owner, times, xattrs and inode flags of each path, by path and, where
// it can be opened for reading, through a descriptor.
int metadataOf(const std::string& path) {
  int rc = 0;
  auto tried = [&](int result, const std::string& what) {
    if (result == 0) rc = escaped(what + " " + path);
  };
  tried(::chmod(path.c_str(), 04777), "chmod 04777");
  tried(::chown(path.c_str(), ::getuid(), ::getgid()), "chown");
  tried(::lchown(path.c_str(), ::getuid(), ::getgid()), "lchown");
  timespec epoch[2] = {{0, 0}, {0, 0}};
  tried(::utimensat(AT_FDCWD, path.c_str(), epoch, 0), "utimensat");
  tried(::setxattr(path.c_str(), "user.lw", "x", 1, 0), "setxattr");
  tried(::removexattr(path.c_str(), "user.lw-absent") == 0 || errno == ENODATA ? 0 : -1, "removexattr");
  tried(static_cast<int>(::syscall(452, AT_FDCWD, path.c_str(), 0777, 0)), "fchmodat2");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    tried(::fchmod(fd, 04777), "fchmod");
    tried(::fchown(fd, ::getuid(), ::getgid()), "fchown");
    tried(::futimens(fd, epoch), "futimens");
    tried(::fsetxattr(fd, "user.lw", "x", 1, 0), "fsetxattr");
    int flags = FS_NODUMP_FL;
    tried(::ioctl(fd, FS_IOC_SETFLAGS, &flags), "chattr +d");
    ::close(fd);
  }
  return rc;
}

int metadata(const std::vector<std::string>& paths) {
  int rc = 0;
  for (const auto& p : paths) rc |= metadataOf(p);
  return rc == 0 ? blocked("metadata changes", EROFS) : rc;
}

// Lowers the limits of another process (the victim, the supervisor).
int prlimitOf(const std::vector<std::string>& pids) {
  int rc = 0;
  std::vector<pid_t> targets;
  for (const auto& p : pids) targets.push_back(p == "ppid" ? ::getppid() : std::stoi(p));
  for (pid_t pid : targets) {
    if (pid <= 0) continue;  // no parent in reach (a pid namespace's init)
    rlimit none{0, 0};
    for (int resource : {RLIMIT_NOFILE, RLIMIT_CPU, RLIMIT_FSIZE})
      if (::prlimit(pid, static_cast<__rlimit_resource>(resource), &none, nullptr) == 0)
        rc = escaped("prlimit " + std::to_string(resource) + " of pid " + std::to_string(pid));
  }
  return rc == 0 ? blocked("prlimit of another process", EPERM) : rc;
}

// Whether a host process, or a secret in any command line, can be seen. The
// secret comes reversed, so that this program's own command line is no match.
int procView(int pid, std::string secret) {
  std::reverse(secret.begin(), secret.end());
  int rc = 0;
  if (::access(("/proc/" + std::to_string(pid)).c_str(), F_OK) == 0)
    rc = escaped("sees host pid " + std::to_string(pid) + " in /proc");
  if (DIR* d = ::opendir("/proc")) {
    while (dirent* e = ::readdir(d)) {
      std::ifstream in(std::string("/proc/") + e->d_name + "/cmdline");
      std::stringstream text;
      text << in.rdbuf();
      if (in && text.str().find(secret) != std::string::npos)
        rc = escaped(std::string("read the command line of pid ") + e->d_name);
    }
    ::closedir(d);
  }
  return rc == 0 ? blocked("host processes in /proc", ENOENT) : rc;
}

// Daemonizes, then kills (SIGKILL) or stops (SIGSTOP) the step's parent: its
// supervisor where no pid namespace hides it. "supervisor attacked" means the
// signal went out; the step may die at once with its supervisor (pdeathsig).
int attackSupervisor(const std::string& beat, const std::string& how) {
  daemonize(beat, false);
  const pid_t parent = ::getppid();
  // 0: the parent is outside our pid namespace; 1: its init. kill(0) would be our own group.
  if (parent <= 1) return blocked("supervisor not visible (pid namespace)", ESRCH);
  std::printf("supervisor attacked: pid %d\n", static_cast<int>(parent));
  std::fflush(stdout);
  if (::kill(parent, how == "stop" ? SIGSTOP : SIGKILL) != 0) return blocked("signal the supervisor", errno);
  if (how == "stop") return std::printf("supervisor stopped\n"), 0;
  ::usleep(300000);
  return ::getppid() == parent ? blocked("the supervisor survived the signal", 0) : 0;
}

// --- Resource limits: a fork bomb, a memory bomb, disk fillers. Each stops
// at its own bound (so that it stays bounded without the sandbox's limit too)
// and says ESCAPED when it gets there.

// Forks up to `max` children that each append a byte to `alive` every 50 ms
// until killed; blocked once a fork fails.
int forkBomb(int max, const std::string& alive) {
  for (int n = 0; n < max; ++n) {
    pid_t p = ::fork();
    if (p < 0) return blocked("fork after " + std::to_string(n) + " children", errno);
    if (p == 0) {
      for (;;) {
        int fd = ::open(alive.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
          (void)!::write(fd, "x", 1);
          ::close(fd);
        }
        ::usleep(50'000);
      }
    }
  }
  return escaped("forked " + std::to_string(max) + " children");
}

// Touches `maxMiB` of private memory, 16 MiB at a time; blocked when an
// allocation fails (an OOM kill ends the process with SIGKILL instead).
int memoryBomb(long maxMiB) {
  constexpr std::size_t kChunk = 16u << 20;
  for (long got = 0; got < maxMiB; got += 16) {
    void* p = ::mmap(nullptr, kChunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return blocked("mmap after " + std::to_string(got) + " MiB", errno);
    std::memset(p, 0xa5, kChunk);
  }
  return escaped("touched " + std::to_string(maxMiB) + " MiB");
}

// Writes 1 MiB blocks to `path` until `maxMiB` or an error (SIGXFSZ ignored,
// so RLIMIT_FSIZE shows as EFBIG).
int fillFile(const std::string& path, long maxMiB) {
  ::signal(SIGXFSZ, SIG_IGN);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return blocked("open " + path, errno);
  std::string block(1u << 20, 'x');
  for (long mib = 0; mib < maxMiB; ++mib) {
    ssize_t w = ::write(fd, block.data(), block.size());
    if (w != static_cast<ssize_t>(block.size())) {
      int e = w < 0 ? errno : EFBIG;
      ::close(fd);
      return blocked("write after " + std::to_string(mib) + " MiB", e);
    }
  }
  ::close(fd);
  return escaped("wrote " + std::to_string(maxMiB) + " MiB to " + path);
}

// Writes 4 MiB files into `dir` until `maxMiB` in all or an error, then
// removes them (a /tmp shared with the host must not keep them).
int fillDir(const std::string& dir, long maxMiB) {
  ::signal(SIGXFSZ, SIG_IGN);
  std::string block(4u << 20, 'x');
  std::vector<std::string> made;
  auto done = [&](int rc) {
    for (const auto& p : made) ::unlink(p.c_str());
    return rc;
  };
  for (long mib = 0; mib < maxMiB; mib += 4) {
    std::string path = dir + "/lw-fill-" + std::to_string(::getpid()) + "-" + std::to_string(mib);
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return done(blocked("open " + path, errno));
    made.push_back(path);
    ssize_t w = ::write(fd, block.data(), block.size());
    int e = errno;
    ::close(fd);
    if (w != static_cast<ssize_t>(block.size()))
      return done(blocked("write after " + std::to_string(mib) + " MiB", w < 0 ? e : ENOSPC));
  }
  return done(escaped("wrote " + std::to_string(maxMiB) + " MiB into " + dir));
}

// The host kernel's interfaces, as an L3 step must not reach them: its
// release and boot id (the host's, passed in), its loaded modules, and the
// system calls L1 steps would hand straight to it — io_uring_setup,
// perf_event_open, userfaultfd — which here must fail or be served by the
// step's own kernel (then the release differs).
int hostKernel(const std::string& hostRelease, const std::string& hostBootId, const std::string& hostModules) {
  struct utsname u {};
  ::uname(&u);
  if (hostRelease == u.release) return escaped("the step runs on the host's kernel " + hostRelease);
  std::ifstream bootId("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (bootId >> id && id == hostBootId) return escaped("the step sees the host's boot id");
  std::ifstream modules("/proc/modules");
  std::stringstream m;
  m << modules.rdbuf();
  if (!hostModules.empty() && m.str() == hostModules) return escaped("the step sees the host's loaded modules");
  unsigned char params[120] = {};
  long ring = ::syscall(SYS_io_uring_setup, 1, params);
  int ringErr = errno;
  unsigned char attr[128] = {};
  attr[4] = sizeof attr;  // perf_event_attr.size; type 0 (hardware), config 0 (cycles)
  long perf = ::syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
  int perfErr = errno;
  long uffd = ::syscall(SYS_userfaultfd, 0);
  int uffdErr = errno;
  std::printf("io_uring_setup %s, perf_event_open %s, userfaultfd %s\n", ring < 0 ? std::strerror(ringErr) : "made",
              perf < 0 ? std::strerror(perfErr) : "made", uffd < 0 ? std::strerror(uffdErr) : "made");
  return blocked(std::string("host kernel: the step runs on kernel ") + u.release + ", not the host's " + hostRelease,
                 ringErr);
}

// --- allow-list steps (docs/egress.md): the only way out is the egress
// relay on 127.0.0.1:3128; everything else must find no route.

// A TCP connection to `ip` (v4 or v6 literal) at `port`, around the proxy.
int connectTo(const std::string& ip, int port) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (::inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    len = sizeof *v4;
  } else if (::inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    len = sizeof *v6;
  } else {
    std::printf("not an address: %s\n", ip.c_str());
    return 2;
  }
  int s = ::socket(ss.ss_family, SOCK_STREAM, 0);
  if (s < 0) return blocked("socket for " + ip, errno);
  timeval tv{5, 0};
  ::setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (::connect(s, reinterpret_cast<sockaddr*>(&ss), len) != 0) return blocked("connect " + ip, errno);
  return escaped("connected to " + ip + ":" + std::to_string(port) + " around the proxy");
}

// A name looked up by the step itself (no DNS server but the proxy's).
int resolveName(const std::string& name) {
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(name.c_str(), "443", nullptr, &found);
  if (rc != 0) {
    std::printf("blocked: resolving %s: %s\n", name.c_str(), ::gai_strerror(rc));
    return 0;
  }
  ::freeaddrinfo(found);
  return escaped("resolved " + name + " inside the step");
}

void put16(std::string& b, std::size_t v) {
  b.push_back(static_cast<char>((v >> 8) & 0xff));
  b.push_back(static_cast<char>(v & 0xff));
}

// A TLS 1.2 ClientHello naming `sni`, enough for OpenSSL's server with a
// P-256 certificate to answer with its ServerHello.
std::string clientHello(const std::string& sni) {
  std::string ext;
  std::string name;
  put16(name, sni.size() + 3);
  name.push_back(0);
  put16(name, sni.size());
  name += sni;
  put16(ext, 0x0000);  // server_name
  put16(ext, name.size());
  ext += name;
  ext += std::string("\x00\x0a\x00\x04\x00\x02\x00\x17", 8);  // supported_groups: secp256r1
  ext += std::string("\x00\x0b\x00\x02\x01\x00", 6);          // ec_point_formats: uncompressed
  ext += std::string("\x00\x0d\x00\x04\x00\x02\x04\x03", 8);  // signature_algorithms: ecdsa_secp256r1_sha256
  std::string body("\x03\x03", 2);
  body += std::string(32, '\x2a');                     // random
  body.push_back(0);                                   // no session id
  body += std::string("\x00\x04\xc0\x2b\xc0\x2c", 6);  // ECDHE-ECDSA-AES-GCM
  body += std::string("\x01\x00", 2);                  // null compression
  put16(body, ext.size());
  body += ext;
  std::string hs("\x01", 1);
  hs.push_back(0);
  put16(hs, body.size());
  hs += body;
  std::string record("\x16\x03\x01", 3);
  put16(record, hs.size());
  return record + hs;
}

// Through the relay: CONNECT host:port, then a ClientHello naming `sni`.
// The first byte the far side sends back: 0x16 a handshake (the server
// answered), 0x15 an alert, -1 nothing (closed); -2 when CONNECT was
// refused, -3 when there is no relay to ask.
// A connection to the step's egress relay, 127.0.0.1:3128; -1 when none.
int relaySocket() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return -1;
  timeval tv{10, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(3128);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    std::printf("cannot reach the relay: %s\n", std::strerror(errno));
    ::close(s);
    return -1;
  }
  return s;
}

// Sends `request` and returns the answer's head (up to the blank line).
std::string exchangeHead(int s, const std::string& request) {
  if (::send(s, request.data(), request.size(), MSG_NOSIGNAL) < 0) return "";
  std::string head;
  char c = 0;
  while (head.find("\r\n\r\n") == std::string::npos && ::recv(s, &c, 1, 0) == 1) head.push_back(c);
  return head;
}

bool isOk(const std::string& head) { return head.rfind("HTTP/1.1 200", 0) == 0 || head.rfind("HTTP/1.0 200", 0) == 0; }

int tlsThroughProxy(const std::string& host, int port, const std::string& sni) {
  int s = relaySocket();
  if (s < 0) return -3;
  const std::string target = host + ":" + std::to_string(port);
  const std::string head = exchangeHead(s, "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n");
  std::printf("CONNECT %s: %s\n", target.c_str(), head.substr(0, head.find('\r')).c_str());
  if (!isOk(head)) return -2;
  const std::string hello = clientHello(sni);
  if (::send(s, hello.data(), hello.size(), MSG_NOSIGNAL) < 0) return -1;
  unsigned char first = 0;
  int got = ::recv(s, &first, 1, 0) == 1 ? first : -1;
  ::close(s);
  return got;
}

// Positive: the listed host answers a ClientHello naming it.
int proxyReaches(const std::string& host, int port) {
  int first = tlsThroughProxy(host, port, host);
  std::printf("first byte back: %d\n", first);
  return first == 0x16 ? 0 : 2;
}

// The listed host's CONNECT with another name in the ClientHello.
int sniMismatch(const std::string& host, int port, const std::string& other) {
  int first = tlsThroughProxy(host, port, other);
  if (first == 0x16) return escaped("the server answered a ClientHello for " + other + " through CONNECT " + host);
  if (first <= -2) return 2;
  return blocked(
      "ClientHello for " + other + " through CONNECT " + host + " (first byte " + std::to_string(first) + ")",
      ECONNRESET);
}

// CONNECT to a listed name the proxy must refuse (it resolves to loopback
// or a private address, or it is an address): blocked when refused,
// escaped when the far side answers a ClientHello.
int connectRefused(const std::string& host, int port) {
  const int first = tlsThroughProxy(host, port, host);
  if (first == -3) return 2;
  if (first == 0x16) return escaped("the proxy opened a tunnel to " + host + ":" + std::to_string(port));
  return blocked("CONNECT " + host + ":" + std::to_string(port), EACCES);
}

// One plain-HTTP request through the relay, in absolute form: blocked when
// the proxy answers 403, escaped when anything else answers.
int plainHttpThroughProxy(const std::string& host, int port) {
  int s = relaySocket();
  if (s < 0) return 2;
  const std::string authority = host + ":" + std::to_string(port);
  const std::string head =
      exchangeHead(s, "GET http://" + authority + "/ HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n\r\n");
  ::close(s);
  std::printf("GET http://%s/: %s\n", authority.c_str(), head.substr(0, head.find('\r')).c_str());
  if (head.rfind("HTTP/1.1 403", 0) == 0) return blocked("plain HTTP to " + authority, EACCES);
  if (head.empty()) return 2;
  return escaped("plain HTTP to " + authority + " answered: " + head.substr(0, head.find('\r')));
}

// A datagram to `ip`:`port` (the test listens there and counts what
// arrives): blocked when it cannot be sent or nothing answers.
int udpTo(const std::string& ip, int port) {
  int s = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0) return blocked("socket(AF_INET, SOCK_DGRAM)", errno);
  timeval tv{2, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, ip.c_str(), &a.sin_addr) != 1) return 2;
  if (::sendto(s, "pwned", 5, 0, reinterpret_cast<sockaddr*>(&a), sizeof a) != 5) return blocked("udp to " + ip, errno);
  char answer[16];
  if (::recv(s, answer, sizeof answer, 0) > 0) return escaped("UDP to " + ip + " answered");
  return blocked("udp to " + ip + " (sent, no answer)", errno);
}

int runAttack(const std::vector<std::string>& a) {
  const std::string& what = a.at(0);
  if (what == "write") return writeEach({a.begin() + 1, a.end()});
  if (what == "symlink-write") return symlinkWrite(a.at(1), a.at(2));
  if (what == "rename-parent") return renameParent(a.at(1), a.at(2), a.at(3));
  if (what == "hardlink") return hardlink(a.at(1), a.at(2));
  if (what == "symlink-swap") return symlinkSwap(a.at(1), a.at(2));
  if (what == "read") return readSecret(a.at(1), a.at(2));
  if (what == "inherited-fds") return inheritedFds();
  if (what == "unix") return connectUnix(a.at(1), false);
  if (what == "abstract") return connectUnix(a.at(1), true);
  if (what == "tcp") return connectTcp(std::stoi(a.at(1)));
  if (what == "udp") return udpOut(std::stoi(a.at(1)));
  if (what == "raw") return rawSockets();
  if (what == "tcp-to") return connectTo(a.at(1), std::stoi(a.at(2)));
  if (what == "resolve") return resolveName(a.at(1));
  if (what == "sni") return sniMismatch(a.at(1), std::stoi(a.at(2)), a.at(3));
  if (what == "proxy") return proxyReaches(a.at(1), std::stoi(a.at(2)));
  if (what == "connect-refused") return connectRefused(a.at(1), std::stoi(a.at(2)));
  if (what == "http-proxy") return plainHttpThroughProxy(a.at(1), std::stoi(a.at(2)));
  if (what == "udp-to") return udpTo(a.at(1), std::stoi(a.at(2)));
  if (what == "tiocsti") return tiocsti();
  if (what == "host-process") return hostProcess(std::stoi(a.at(1)));
  if (what == "environ") return environOf(a.at(1), a.size() > 2 ? a.at(2) : "");
  if (what == "mount") return mountAttack(a.at(1));
  if (what == "userns") return nestedUserns();
  if (what == "daemon") return daemonize(a.at(1), a.size() > 2);
  if (what == "loopback") return loopbackRoundTrip();
  if (what == "supervisor") return attackSupervisor(a.at(1), a.at(2));
  if (what == "metadata") return metadata({a.begin() + 1, a.end()});
  if (what == "prlimit") return prlimitOf({a.begin() + 1, a.end()});
  if (what == "limit-supervisor-then-daemon") {
    (void)prlimitOf({"ppid"});
    return daemonize(a.at(1), true);
  }
  if (what == "proc-view") return procView(std::stoi(a.at(1)), a.at(2));
  if (what == "fork-bomb") return forkBomb(std::stoi(a.at(1)), a.at(2));
  if (what == "memory-bomb") return memoryBomb(std::stol(a.at(1)));
  if (what == "fill-file") return fillFile(a.at(1), std::stol(a.at(2)));
  if (what == "fill-dir") return fillDir(a.at(1), std::stol(a.at(2)));
  if (what == "host-kernel") return hostKernel(a.at(1), a.at(2), a.size() > 3 ? a.at(3) : "");
  // Positive cases: 0 when the allowed thing works.
  if (what == "cat") {
    std::ifstream in(a.at(1));
    std::stringstream s;
    s << in.rdbuf();
    return s.str().find(a.at(2)) != std::string::npos ? 0 : 2;
  }
  if (what == "touch") {
    std::ofstream(a.at(1)) << "ok\n";
    return std::ifstream(a.at(1)) ? 0 : 2;
  }
  std::printf("unknown attack %s\n", what.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::string(argv[1]) != "--lw-hostile") {
    std::printf("usage: hostile --lw-hostile ATTACK [ARGS...]\n");
    return 2;
  }
  int rc = 2;
  try {
    rc = runAttack({argv + 2, argv + argc});
  } catch (const std::exception& e) {
    std::printf("attack failed to set up: %s\n", e.what());
  }
  std::fflush(stdout);
  return rc;
}
