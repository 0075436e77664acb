// The floor of the linux-landlock backend: only the system calls a step
// confined by Landlock needs, with nothing of loopwright's front (no policy,
// negotiation, planning, filter compilation or report). It plays the part
// raw bwrap plays for linux-bwrap: the bench hands it the rules loopwright's
// planner made and the seccomp program loopwright compiled (on fd 4), and it
// does what the backend does with them — a subreaper that outlives the step
// (a daemon must not survive), the step in a new session with no new
// privileges, namespaces where the plan asks for them (with the private
// view: the step as a pid namespace's init, a fresh /proc, every mount
// read-only but the writable trees), the ruleset, no capabilities, the
// filter, exec — and nothing else.
//
// usage: raw_landlock FS NET SCOPES USERNS NETNS PIDNS MOUNTNS WORKDIR NTREES [TREE]...
//                     [ACCESS PATH]... -- CMD [ARGS...]
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/mount.h>
#include <linux/seccomp.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sandbox/landlock/landlock_abi.h"

namespace ll = lw::sandbox::landlock;

namespace {

struct Rule {
  std::uint64_t access;
  const char* path;
};

[[noreturn]] void die(const char* what) {
  std::perror(what);
  _exit(126);
}

void writeFile(const char* path, const char* text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, text, std::strlen(text)) < 0) die(path);
  close(fd);
}

struct Namespaces {
  bool user = false, network = false, pid = false, mount = false;
};

void bringLoopbackUp() {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ifreq req{};
  std::memcpy(req.ifr_name, "lo", 3);
  if (s < 0 || ioctl(s, SIOCGIFFLAGS, &req) != 0) die("lo");
  req.ifr_flags = static_cast<short>(req.ifr_flags | IFF_UP);
  if (ioctl(s, SIOCSIFFLAGS, &req) != 0) die("lo up");
  close(s);
}

void enterNamespaces(const Namespaces& ns) {
  char uidMap[64], gidMap[64];
  std::snprintf(uidMap, sizeof uidMap, "%u %u 1\n", geteuid(), geteuid());
  std::snprintf(gidMap, sizeof gidMap, "%u %u 1\n", getegid(), getegid());
  int flags = (ns.user ? CLONE_NEWUSER : 0) | CLONE_NEWIPC | (ns.network ? CLONE_NEWNET : 0) |
              (ns.pid ? CLONE_NEWPID : 0) | (ns.mount ? CLONE_NEWNS : 0);
  if (unshare(flags) != 0) die("unshare");
  if (ns.user) {
    writeFile("/proc/self/setgroups", "deny");
    writeFile("/proc/self/gid_map", gidMap);
    writeFile("/proc/self/uid_map", uidMap);
  }
  if (ns.network) bringLoopbackUp();
}

// The pid namespace's init is a child: this process waits and exits as it.
void forkInit() {
  pid_t init = fork();
  if (init < 0) die("fork");
  if (init == 0) return;
  int status = 0;
  waitpid(init, &status, 0);
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128);
}

void privateView(const std::vector<const char*>& trees, const char* workdir) {
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) die("private");
  if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) die("proc");
  std::vector<int> clones;
  for (const char* t : trees) {
    int fd = static_cast<int>(syscall(SYS_open_tree, AT_FDCWD, t, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE));
    if (fd < 0) die("open_tree");
    clones.push_back(fd);
  }
  mount_attr attr{};
  attr.attr_set = MOUNT_ATTR_RDONLY;
  if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &attr, sizeof attr) != 0) die("mount_setattr");
  for (std::size_t i = 0; i < trees.size(); ++i) {
    if (syscall(SYS_move_mount, clones[i], "", AT_FDCWD, trees[i], MOVE_MOUNT_F_EMPTY_PATH) != 0) die("move_mount");
    close(clones[i]);
  }
  if (chdir(workdir) != 0) die("chdir");
}

void restrict(const ll::RulesetAttr& handled, const std::vector<Rule>& rules) {
  ll::RulesetAttr attr = handled;
  int ruleset = ll::createRuleset(&attr, sizeof attr, 0);
  if (ruleset < 0) die("landlock_create_ruleset");
  for (const Rule& r : rules) {
    int fd = open(r.path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    std::uint64_t access = r.access & handled.handledAccessFs;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) access &= ll::kFsFileRights;
    ll::PathBeneathAttr beneath{access, fd};
    if (access != 0 && ll::addRule(ruleset, ll::kRulePathBeneath, &beneath, 0) != 0) die("landlock_add_rule");
    close(fd);
  }
  if (ll::restrictSelf(ruleset, 0) != 0) die("landlock_restrict_self");
  close(ruleset);
}

void dropCapabilities() {
  for (int cap = 0; cap <= 63; ++cap)
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM) die("PR_CAPBSET_DROP");
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[2]{};
  if (syscall(SYS_capset, &hdr, none) != 0) die("capset");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 11) {
    std::fprintf(stderr,
                 "usage: raw_landlock FS NET SCOPES USERNS NETNS PIDNS MOUNTNS WORKDIR NTREES "
                 "[TREE]... [ACCESS PATH]... -- CMD...\n");
    return 2;
  }
  ll::RulesetAttr handled{std::strtoull(argv[1], nullptr, 0), std::strtoull(argv[2], nullptr, 0),
                          std::strtoull(argv[3], nullptr, 0)};
  Namespaces ns{argv[4][0] == '1', argv[5][0] == '1', argv[6][0] == '1', argv[7][0] == '1'};
  const char* workdir = argv[8];
  int i = 10;
  std::vector<const char*> trees;
  for (int n = std::atoi(argv[9]); n > 0 && i < argc; --n) trees.push_back(argv[i++]);
  std::vector<Rule> rules;
  for (; i + 1 < argc && std::strcmp(argv[i], "--") != 0; i += 2)
    rules.push_back({std::strtoull(argv[i], nullptr, 0), argv[i + 1]});
  if (i + 1 >= argc) die("no command");
  char** command = argv + i + 1;

  // The compiled program, as bwrap's --seccomp reads it.
  std::vector<sock_filter> program(4096);
  ssize_t got = read(4, program.data(), program.size() * sizeof(sock_filter));
  if (got <= 0) die("reading the seccomp program from fd 4");
  close(4);
  sock_fprog fprog{static_cast<unsigned short>(got / sizeof(sock_filter)), program.data()};

  pid_t supervisor = fork();
  if (supervisor < 0) die("fork");
  if (supervisor > 0) {
    int status = 0;
    waitpid(supervisor, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  }
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  pid_t step = fork();
  if (step < 0) die("fork");
  if (step == 0) {
    if (setsid() < 0) die("setsid");
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("no_new_privs");
    if (ns.user || ns.network || ns.pid || ns.mount) enterNamespaces(ns);
    if (ns.pid) forkInit();
    if (ns.mount) privateView(trees, workdir);
    restrict(handled, rules);
    dropCapabilities();
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) die("seccomp");
    execv(command[0], command);
    die("execv");
  }
  // The step first, then whatever it left behind (re-parented to us), killed.
  int stepStatus = 0;
  waitpid(step, &stepStatus, 0);
  char children[64];
  std::snprintf(children, sizeof children, "/proc/self/task/%d/children", getpid());
  for (;;) {
    char buf[4096];
    int fd = open(children, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
    if (fd >= 0) close(fd);
    buf[n > 0 ? n : 0] = '\0';
    for (char* p = buf; *p != '\0';) {
      char* end = nullptr;
      long pid = std::strtol(p, &end, 10);
      if (end == p) break;
      kill(static_cast<pid_t>(pid), SIGKILL);
      p = end;
    }
    int status = 0;
    if (waitpid(-1, &status, n > 0 ? 0 : WNOHANG) < 0 && errno == ECHILD) break;
  }
  _exit(WIFEXITED(stepStatus) ? WEXITSTATUS(stepStatus) : 128);
}
