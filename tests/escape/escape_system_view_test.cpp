// What the step sees of the host's system paths: root-only files under /etc
// stay unreadable even when loopwright runs as root, and the step's command
// is found in the step's view, never through the caller's view.
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "escape/escape_common.h"
#include "sandbox/process/executable.h"
#include "support/host_requirement.h"

using namespace lw::escape;
namespace fs = std::filesystem;

namespace {

// A root-owned 0600 file created on the host for one case, removed after.
struct RootOnlyFile {
  fs::path path;
  std::string secret = "lw-root-only-" + std::to_string(::getpid());
  explicit RootOnlyFile(fs::path p) : path(std::move(p)) {
    std::ofstream(path) << secret << "\n";
    ::chmod(path.c_str(), 0600);
  }
  ~RootOnlyFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `loopwright sandbox exec … -- COMMAND…` with the caller's PATH set to
// `path` (the harness's sandboxExec runs only the hostile program).
ExecResult execWithPath(const Runner& r, const CaseDirs& c, const std::string& path,
                        const std::vector<std::string>& command) {
  std::vector<std::string> argv = {LOOPWRIGHT_BIN, "sandbox", "exec", "--backend", r.backend,
                                   "--network", "none", "--workspace", c.ws.string()};
  argv.insert(argv.end(), r.flags.begin(), r.flags.end());
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  lw::sandbox::process::ExecStrings args(argv);
  std::vector<std::string> env = {"PATH=" + path, "HOME=" + c.root.string()};
  if (const char* docker = std::getenv("DOCKER_HOST")) env.push_back(std::string("DOCKER_HOST=") + docker);
  lw::sandbox::process::ExecStrings envp(env);
  fs::path out = c.root / "stdout", err = c.root / "stderr";
  pid_t pid = ::fork();
  if (pid == 0) {
    int fo = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    if (r.uid && (::setgroups(0, nullptr) != 0 || ::setgid(r.gid) != 0 || ::setuid(*r.uid) != 0)) ::_exit(99);
    ::execve(argv[0].c_str(), args.get(), envp.get());
    ::_exit(127);
  }
  int st = 0;
  ::waitpid(pid, &st, 0);
  ExecResult res;
  res.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  res.out = readAll(out);
  res.err = readAll(err);
  return res;
}

}  // namespace

TEST_CASE("escape: a root-only file under /etc is unreadable, also when loopwright runs as root") {
  if (::getuid() != 0) {
    lw::test::requireHost(false, "creating a root-owned file under /etc needs root");
    return;
  }
  // Beside the allow-list, and inside a directory next to an allowed one.
  std::vector<fs::path> places = {"/etc/lw-escape-root-only-" + std::to_string(::getpid())};
  if (fs::is_directory("/etc/ssl/private"))
    places.push_back("/etc/ssl/private/lw-escape-" + std::to_string(::getpid()) + ".key");
  for (const fs::path& place : places) {
    RootOnlyFile secret(place);
    for (const Runner& r : runners()) {
      if (!probeEnforces(r, lw::Capability::FilesystemReadContainment)) continue;
      CAPTURE(r.label());
      CAPTURE(place);
      auto c = makeCase(r);
      checkBlocked(sandboxExec(r, *c, {"read", place.string(), secret.secret}));
    }
  }
}

TEST_CASE("escape: the step's command is found in its view, not through a shim on the caller's PATH") {
  for (const Runner& r : runners()) {
    if (!probeEnforces(r, lw::Capability::FilesystemReadContainment)) continue;
    CAPTURE(r.label());
    auto c = makeCase(r);
    // c->outside is a host directory the view does not show: a pyenv-style shim.
    fs::path shims = c->outside / "shims";
    fs::create_directories(shims);
    std::ofstream(shims / "echo") << "#!/bin/sh\necho SHIM\n";
    ::chmod(shims.c_str(), 0755);
    ::chmod((shims / "echo").c_str(), 0755);
    ExecResult res = execWithPath(r, *c, shims.string() + ":/usr/local/bin:/usr/bin:/bin", {"echo", "REAL"});
    INFO(res.describe());
    CHECK(res.status == 0);
    CHECK(res.out == "REAL\n");
  }
}
