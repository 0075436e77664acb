#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "escape/escape_common.h"

using namespace lw::escape;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// What the metadata attack may not change: mode, owner, times, xattrs.
std::string metadataOf(const fs::path& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0) return "missing";
  char names[1024] = {};
  ssize_t n = ::llistxattr(p.c_str(), names, sizeof names);
  return std::to_string(st.st_mode) + " " + std::to_string(st.st_uid) + ":" + std::to_string(st.st_gid) + " mtime " +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " ctime " +
         std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec) + " xattrs " +
         std::string(names, n > 0 ? static_cast<std::size_t>(n) : 0);
}

}  // namespace

TEST_CASE("escape: write outside the workspace, also through /proc/self/root, /proc/1/root and /proc/<host pid>/root") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    std::string o = c->outside.string();
    checkBlocked(
        sandboxExec(r, *c,
                    {"write", o + "/direct", "/usr/lw-escape", "/etc/lw-escape", c->ws.string() + "/ro-workspace",
                     "/proc/self/root" + o + "/self", "/proc/1/root" + o + "/one",
                     "/proc/" + std::to_string(::getpid()) + "/root" + o + "/host"}));
    CHECK(fs::is_empty(c->outside));
    CHECK(!fs::exists("/usr/lw-escape"));
    CHECK(!fs::exists("/etc/lw-escape"));
    CHECK(!fs::exists(c->ws / "ro-workspace"));
  }
}

TEST_CASE("escape: write through a symlink, made inside or planted beforehand") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    checkBlocked(sandboxExec(r, *c, {"symlink-write", c->writable.string(), (c->outside / "target").string()}));
    checkBlocked(sandboxExec(r, *c, {"symlink-write", c->writable.string(), "/etc/passwd-lw"}));
    fs::create_symlink(c->outside / "planted", c->writable / "planted");
    checkBlocked(sandboxExec(r, *c, {"write", (c->writable / "planted").string()}));
    CHECK(fs::is_empty(c->outside));
    CHECK(!fs::exists("/etc/passwd-lw"));
  }
}

TEST_CASE(
    "escape: protected paths stay read-only directly, after renaming the parent, through a hardlink, after a symlink "
    "swap") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    put(c->ws / ".github/workflows/ci.yml", "original\n");
    put(c->ws / ".loopwright/policies/p.yaml", "policy\n");
    put(c->ws / "AGENTS.md", "agents\n");
    put(c->ws / ".git/config", "[core]\n");
    if (r.uid) {
      for (auto& e : fs::recursive_directory_iterator(c->ws)) (void)!::lchown(e.path().c_str(), *r.uid, r.gid);
    }
    ExecOptions o;
    // A backend that cannot take write access back inside a writable tree
    // (Landlock) must be refused at negotiation, never run unmasked.
    o.flags = {"--writable", c->ws.string(), "--require", "protectedPathReadOnlyMask"};
    checkBlockedOrRefused(r,
                          sandboxExec(r, *c,
                                      {"write", (c->ws / ".github/workflows/ci.yml").string(),
                                       (c->ws / ".github/new.yml").string(), (c->ws / "AGENTS.md").string(),
                                       (c->ws / ".git/config").string(), (c->ws / ".git/hooks-new").string()},
                                      o),
                          lw::Capability::ProtectedPathReadOnlyMask);
    checkBlockedOrRefused(
        r,
        sandboxExec(r, *c, {"rename-parent", (c->ws / ".loopwright").string(), "policies", (c->ws / "moved").string()},
                    o),
        lw::Capability::ProtectedPathReadOnlyMask);
    checkBlockedOrRefused(
        r, sandboxExec(r, *c, {"hardlink", (c->ws / "AGENTS.md").string(), (c->writable / "agents").string()}, o),
        lw::Capability::ProtectedPathReadOnlyMask);
    checkBlockedOrRefused(r,
                          sandboxExec(r, *c, {"symlink-swap", c->writable.string(), (c->ws / ".github").string()}, o),
                          lw::Capability::ProtectedPathReadOnlyMask);
    CHECK(slurp(c->ws / ".github/workflows/ci.yml") == "original\n");
    CHECK(!fs::exists(c->ws / ".github/new.yml"));
    CHECK(slurp(c->ws / ".git/config") == "[core]\n");
    CHECK(!fs::exists(c->ws / ".git/hooks-new"));
    CHECK(slurp(c->ws / ".loopwright/policies/p.yaml") == "policy\n");
    CHECK(!fs::exists(c->ws / "moved"));
    CHECK(slurp(c->ws / "AGENTS.md") == "agents\n");
    CHECK(fs::is_directory(fs::symlink_status(c->ws / ".github")));
  }
}

TEST_CASE("escape: protected paths that do not exist yet cannot be created") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    ExecOptions o;
    // A backend that cannot take write access back inside a writable tree
    // (Landlock) must be refused at negotiation, never run unmasked.
    o.flags = {"--writable", c->ws.string(), "--require", "protectedPathReadOnlyMask"};
    checkBlockedOrRefused(
        r,
        sandboxExec(r, *c,
                    {"write", (c->ws / "CLAUDE.md").string(), (c->ws / ".loopwright/policies/new.yaml").string()}, o),
        lw::Capability::ProtectedPathReadOnlyMask);
    CHECK(!fs::exists(c->ws / "CLAUDE.md"));
    CHECK(!fs::exists(c->ws / ".loopwright"));
  }
}

TEST_CASE("escape: denied paths and host credentials are unreadable") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    put(c->ws / "secret.txt", "TOPSECRET\n");
    put(c->ws / "creds/key", "TOPSECRET\n");
    put(c->root / "home/.ssh/id_rsa", "TOPSECRET\n");
    ExecOptions o;
    o.flags = {"--deny-read", (c->ws / "secret.txt").string(), "--deny-read", (c->ws / "creds").string()};
    checkBlocked(sandboxExec(r, *c, {"read", (c->ws / "secret.txt").string(), "TOPSECRET"}, o));
    checkBlocked(sandboxExec(r, *c, {"read", (c->ws / "creds/key").string(), "TOPSECRET"}, o));
    checkBlocked(sandboxExec(r, *c, {"read", (c->root / "home/.ssh/id_rsa").string(), "TOPSECRET"}, o));
    checkBlocked(sandboxExec(r, *c, {"read", "/etc/shadow", "root:"}, o));
  }
}

TEST_CASE("escape: no descriptor inherited by loopwright reaches the step") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path target = c->outside / "fd-target";
    int fd = ::open(target.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    REQUIRE(fd >= 0);
    ExecOptions o;
    o.inheritFd = fd;
    checkBlocked(sandboxExec(r, *c, {"inherited-fds"}, o));
    ::close(fd);
    CHECK(fs::file_size(target) == 0);
  }
}

TEST_CASE("escape positive: the workspace is readable and writable paths are writable") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    put(c->ws / "readme.txt", "hello\n");
    ExecResult read = sandboxExec(r, *c, {"cat", (c->ws / "readme.txt").string(), "hello"});
    CHECK_MESSAGE(read.status == 0, read.describe());
    ExecResult write = sandboxExec(r, *c, {"touch", (c->writable / "made").string()});
    CHECK_MESSAGE(write.status == 0, write.describe());
    CHECK(slurp(c->writable / "made") == "ok\n");
  }
}

TEST_CASE(
    "escape: metadata outside the writable paths stays: chmod setuid/0777, chown, utime, xattrs, chattr, by path and "
    "by descriptor") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path denied = c->root / "denied";
    put(c->outside / "file", "host\n");
    put(c->ws / "ro-file", "workspace\n");
    put(denied / "key", "secret\n");
    std::vector<fs::path> targets = {c->outside / "file", c->outside, c->ws / "ro-file", c->ws, denied / "key", denied};
    std::vector<std::string> before, args = {"metadata"};
    for (const fs::path& t : targets) {
      ::chmod(t.c_str(), fs::is_directory(t) ? 0755 : 0644);
      if (r.uid) (void)!::chown(t.c_str(), *r.uid, r.gid);
      before.push_back(metadataOf(t));
      args.push_back(t.string());
    }
    ExecOptions o;
    o.flags = {"--deny-read", denied.string()};
    checkBlocked(sandboxExec(r, *c, args, o));
    for (std::size_t i = 0; i < targets.size(); ++i) {
      CAPTURE(targets[i]);
      CHECK(metadataOf(targets[i]) == before[i]);
    }
  }
}
