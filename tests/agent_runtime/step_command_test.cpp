#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "pipeline/step/step_command.h"
#include "support/temp_dir.h"

using namespace lw;
namespace fs = std::filesystem;

namespace {

Step securityStep() {
  Step s;
  s.name = "security";
  s.uses = "builtin/security";
  s.params = boost::json::object{{"maxFindings", 5}};
  return s;
}

void touch(const fs::path& p) { std::ofstream(p) << "#!/bin/sh\n"; }

bool isFile(const fs::path& p) { return fs::is_regular_file(p); }

sandbox::BackendTraits containerTraits() {
  sandbox::BackendTraits t;
  t.hostFilesVisible = false;
  return t;
}

}  // namespace

TEST_CASE("step command: a run: step runs its argv and binds nothing more") {
  Step s;
  s.run = {"./check.sh", "--all"};
  auto c = pipeline::stepCommand(s, "/opt/lw/loopwright", {}, "linux-bwrap", isFile);
  REQUIRE(c);
  CHECK(c->argv == std::vector<std::string>{"./check.sh", "--all"});
  CHECK(c->readOnlyPaths.empty());
}

TEST_CASE("step command: a built-in runs the engine beside loopwright with its parameters, the engine bound") {
  test::TempDir dir;
  touch(dir.root / "loopwright");
  touch(dir.root / "loopwright-engine");
  auto c = pipeline::stepCommand(securityStep(), dir.root / "loopwright", {}, "linux-bwrap", isFile);
  REQUIRE(c);
  const std::string engine = (dir.root / "loopwright-engine").string();
  CHECK(c->argv == std::vector<std::string>{engine, "agent", "security", "--params", R"({"maxFindings":5})"});
  CHECK(c->readOnlyPaths == std::vector<fs::path>{engine});
}

TEST_CASE("step command: a built-in is refused on docker and without an engine") {
  test::TempDir dir;
  touch(dir.root / "loopwright");
  auto docker = pipeline::stepCommand(securityStep(), dir.root / "loopwright", containerTraits(), "docker", isFile);
  REQUIRE_FALSE(docker);
  CHECK(docker.error().code == ErrorCode::SandboxLaunchFailed);
  CHECK(docker.error().message == "'builtin/security' cannot run on docker: the step there does not see loopwright");
  auto none = pipeline::stepCommand(securityStep(), dir.root / "loopwright", {}, "linux-bwrap", isFile);
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("needs loopwright-engine beside") != std::string::npos);
}
