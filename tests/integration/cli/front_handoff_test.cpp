// `loopwright` runs the hot-path commands itself and hands the rest to
// loopwright-engine beside it (core/executables.h).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/run_cli.h"

namespace fs = std::filesystem;
using lw::test::CliRun;

namespace {

CliRun runBinary(const std::string& binary, const std::vector<std::string>& args) {
  lw::sandbox::process::SpawnRequest req;
  req.argv.push_back(binary);
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/root"}};
  CliRun run;
  auto p = lw::sandbox::process::spawn(req);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  run.status = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60)).status();
  run.out = (*p)->stdoutData().data;
  run.err = (*p)->stderrData().data;
  return run;
}

}  // namespace

TEST_CASE("front: help and every engine command reach loopwright-engine, the hot path stays in loopwright") {
  CliRun help = lw::test::runCli({"--help"});
  CHECK(help.status == 0);
  for (const char* command : {"validate", "run", "verify check", "sandbox exec", "bridge stdio", "qualify"})
    CHECK_MESSAGE(help.out.find(std::string("  ") + command) != std::string::npos, command);
  CliRun unknown = lw::test::runCli({"no-such-command"});
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("unknown command 'no-such-command'") != std::string::npos);
  CliRun version = lw::test::runCli({"--version"});
  CHECK(version.status == 0);
  CHECK(version.out.rfind("loopwright ", 0) == 0);
}

TEST_CASE("front: without loopwright-engine beside it, a clear internal error and no hang") {
  char t[] = "/tmp/lw-front-XXXXXX";
  fs::path dir = ::mkdtemp(t);
  fs::copy_file(LOOPWRIGHT_BIN, dir / "loopwright");
  ::chmod((dir / "loopwright").c_str(), 0755);
  CliRun alone = runBinary((dir / "loopwright").string(), {"validate"});
  CHECK(alone.status == 70);
  CHECK(alone.err.find("cannot run " + (dir / "loopwright-engine").string()) != std::string::npos);
  CHECK(alone.err.find("side by side") != std::string::npos);
  // The hot path needs no engine: its own usage error comes from the front.
  CliRun exec =
      runBinary((dir / "loopwright").string(), {"sandbox", "exec", "--network", "nowhere", "--", "/bin/true"});
  CHECK(exec.status == 2);
  CHECK(exec.err.find("unknown network mode 'nowhere'") != std::string::npos);
  std::error_code ec;
  fs::remove_all(dir, ec);
}
