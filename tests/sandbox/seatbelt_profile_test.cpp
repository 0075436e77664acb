#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/environment.h"
#include "sandbox/seatbelt/sbpl_profile.h"
#include "sandbox/seatbelt/seatbelt_backend.h"

using namespace lw::sandbox;
using namespace lw::sandbox::seatbelt;
using lw::ErrorCode;
using lw::NetworkMode;
namespace fs = std::filesystem;

namespace {

void checkGoldenText(const std::string& rel, const std::string& actual) {
  const std::string path = std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/seatbelt/" + rel;
  const char* update = std::getenv("LW_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") std::ofstream(path) << actual;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << path << " (LW_UPDATE_GOLDEN=1 writes it)");
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK_MESSAGE(ss.str() == actual, "golden " << rel << " differs; actual:\n" << actual);
}

StepSpec reviewer() {
  StepSpec spec;
  spec.argv = {"./.loopwright/agents/security.sh"};
  spec.workspace = "/Users/dev/repo";
  spec.outDir = "/private/var/folders/xy/T/lw/out";
  spec.protectedPaths = {".github", ".loopwright/policies", "AGENTS.md", "CLAUDE.md"};
  spec.deniedReadPaths = {"/Users/dev/.ssh", "/Users/dev/.aws", "secrets"};
  return spec;
}

}  // namespace

TEST_CASE("seatbelt profile: a reviewer reads its workspace, writes its out dir, has no network") {
  auto profile = sbplProfile(SbplInput{reviewer()});
  REQUIRE(profile.ok());
  checkGoldenText("reviewer_none.sb", *profile);
}

TEST_CASE("seatbelt profile: an author's protected paths are denied after the writable allow, ancestors pinned") {
  StepSpec spec = reviewer();
  spec.workspaceWritable = true;
  spec.writablePaths = {"/Users/dev/.cache/tool"};
  spec.network = NetworkMode::LoopbackOnly;
  spec.env = {{"LOOPWRIGHT_BRIDGE", "/private/var/folders/xy/T/lw/bridge.sock"}};
  auto profile = sbplProfile(SbplInput{spec});
  REQUIRE(profile.ok());
  checkGoldenText("author_loopback.sb", *profile);
  // SBPL: the later rule wins, so every deny must follow the writable allow.
  const auto allowWrite = profile->find("(allow file-write* (subpath");
  CHECK(allowWrite < profile->find("(deny file-write* file-link (subpath \"/Users/dev/repo/.github\")"));
  CHECK(allowWrite <
        profile->find("(deny file-write* (literal \"/Users/dev/repo\") (literal \"/Users/dev/repo/.loopwright\"))"));
  CHECK(allowWrite < profile->find("(deny file-read* file-write* file-link (subpath \"/Users/dev/.ssh\")"));
}

TEST_CASE("seatbelt profile: allow-outbound keeps the host's loopback out, odd paths are quoted") {
  StepSpec spec;
  spec.argv = {"/bin/true"};
  spec.workspace = "/Users/dev/my \"quoted\" repo\\x";
  spec.outDir = "/Users/dev/out ü";
  spec.network = NetworkMode::AllowOutbound;
  spec.env = {{"LOOPWRIGHT_BRIDGE", "fd:3"}};
  auto profile = sbplProfile(SbplInput{spec, {"/usr"}});
  REQUIRE(profile.ok());
  checkGoldenText("outbound_quoted.sb", *profile);
}

TEST_CASE("seatbelt profile: without an out dir or writable scope nothing is writable") {
  StepSpec spec = reviewer();
  spec.outDir.clear();
  auto profile = sbplProfile(SbplInput{spec});
  REQUIRE(profile.ok());
  CHECK(profile->find("(allow file-write* (subpath") == std::string::npos);
}

TEST_CASE("seatbelt profile: string literals escape quote and backslash only") {
  CHECK(sbplQuote("/a/b") == "\"/a/b\"");
  CHECK(sbplQuote("a\"b") == "\"a\\\"b\"");
  CHECK(sbplQuote("a\\b") == "\"a\\\\b\"");
  CHECK(sbplQuote("a\\\")(allow default)") == "\"a\\\\\\\")(allow default)\"");
  CHECK(sbplQuote("") == "\"\"");
}

TEST_CASE("seatbelt profile: paths it cannot name faithfully are refused") {
  struct Case {
    const char* name;
    void (*mutate)(StepSpec&);
    std::string message;
  };
  const Case cases[] = {
      {"relative workspace", [](StepSpec& s) { s.workspace = "repo"; }, "workspace 'repo' is not an absolute path"},
      {"newline in a path", [](StepSpec& s) { s.deniedReadPaths = {"/Users/dev/a\nb"}; },
       "path '/Users/dev/a\nb' holds a control character"},
      {"relative bridge", [](StepSpec& s) { s.env["LOOPWRIGHT_BRIDGE"] = "bridge.sock"; },
       "bridge socket 'bridge.sock' is not an absolute path"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    StepSpec spec = reviewer();
    c.mutate(spec);
    auto profile = sbplProfile(SbplInput{spec});
    REQUIRE(!profile.ok());
    CHECK(profile.error().code == ErrorCode::SandboxLaunchFailed);
    CHECK(profile.error().message == c.message);
  }
}

TEST_CASE("seatbelt canonical spec: paths resolved as the kernel sees them, symlinked protections kept twice") {
  std::string tmpl = (fs::temp_directory_path() / "lw-sbpl-XXXXXX").string();
  const fs::path root = fs::canonical(::mkdtemp(tmpl.data()));
  fs::create_directories(root / "real" / ".github");
  std::ofstream(root / "real" / "AGENTS.md") << "x";
  fs::create_symlink("real", root / "ws");
  fs::create_symlink("AGENTS.md", root / "real" / "CLAUDE.md");
  StepSpec spec;
  spec.workspace = root / "ws";
  spec.outDir = "out";
  spec.protectedPaths = {".github", "CLAUDE.md", "missing/file"};
  spec.readOnlyPaths = {root / "ws" / "AGENTS.md"};
  const StepSpec c = canonicalSpec(spec);
  CHECK(c.readOnlyPaths == std::vector<fs::path>{root / "real" / "AGENTS.md"});
  CHECK(c.workspace == root / "real");
  CHECK(c.outDir == root / "real" / "out");
  CHECK(c.protectedPaths == std::vector<fs::path>{root / "real" / ".github", root / "real" / "CLAUDE.md",
                                                  root / "real" / "AGENTS.md", root / "real" / "missing" / "file"});
  fs::remove_all(root);
}

TEST_CASE("seatbelt: the command line a macOS job runs") {
  CHECK(sandboxExecArgv("(version 1)", {"/bin/echo", "hi"}) ==
        std::vector<std::string>{"/usr/bin/sandbox-exec", "-p", "(version 1)", "/bin/echo", "hi"});
}

#if !defined(__APPLE__)
TEST_CASE("seatbelt backend: probes unavailable off macOS, with the reason, and refuses to launch") {
  auto backend = makeSeatbeltBackend(lw::Environment{});
  CHECK(backend->id() == lw::BackendId::MacosSeatbelt);
  const ProbeReport& r = backend->probe();
  CHECK(!r.available);
  CHECK(r.unavailableReason == "macos-seatbelt needs macOS's sandbox-exec (this host is not macOS)");
  for (auto c : lw::kAllCapabilities) CHECK(r.capabilities.at(c).support == Support::Absent);
  auto launched = backend->launch(StepSpec{});
  REQUIRE(!launched.ok());
  CHECK(launched.error().code == ErrorCode::SandboxBackendUnavailable);
}
#endif
