// What the step sees of the host's system paths: root-only files under /etc,
// on its allow-list or beside it, stay unreadable even when loopwright runs
// as root, and the step's command is found in the step's view, never
// through the caller's view.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "escape/escape_common.h"
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

// The directories on the way to `file` that are missing, made for one case
// and removed after (deepest first).
struct MadeParents {
  std::vector<fs::path> made;
  explicit MadeParents(const fs::path& file) {
    for (fs::path dir = file.parent_path(); !fs::exists(dir); dir = dir.parent_path()) made.push_back(dir);
    for (auto it = made.rbegin(); it != made.rend(); ++it) fs::create_directory(*it);
  }
  ~MadeParents() {
    std::error_code ec;
    for (const fs::path& dir : made) fs::remove(dir, ec);
  }
};

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
  // On the allow-list itself (Red Hat's TLS bundle, absent on Debian): a
  // file others may not read is left out of the view all the same.
  if (!fs::exists("/etc/pki/tls/cert.pem")) places.push_back("/etc/pki/tls/cert.pem");
  for (const fs::path& place : places) {
    MadeParents parents(place);
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
    ExecOptions o;
    o.callerPath = shims.string() + ":/usr/local/bin:/usr/bin:/bin";
    o.command = {"echo", "REAL"};
    ExecResult res = sandboxExec(r, *c, {}, o);
    INFO(res.describe());
    CHECK(res.status == 0);
    CHECK(res.out == "REAL\n");
  }
}
