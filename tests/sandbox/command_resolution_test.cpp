#include <doctest/doctest.h>

#include <cerrno>
#include <set>
#include <string>
#include <vector>

#include "sandbox/process/executable.h"

using namespace lw::sandbox::process;

namespace {

// A view: the files the step can execute there.
RunnableInView viewOf(std::set<std::string> files) {
  return [files](const std::string& p) { return files.count(p) > 0; };
}

}  // namespace

TEST_CASE("command resolution: the step's PATH, in order, first runnable in the step's view wins") {
  struct Case {
    const char* name;
    std::string command;
    std::string path;
    std::set<std::string> view;
    std::optional<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"first entry wins",
       "python3",
       "/usr/local/bin:/usr/bin",
       {"/usr/local/bin/python3", "/usr/bin/python3"},
       "/usr/local/bin/python3"},
      {"a shim outside the view is passed over",
       "python3",
       "/root/.pyenv/shims:/usr/bin:/bin",
       {"/usr/bin/python3"},
       "/usr/bin/python3"},
      {"nothing in the view", "python3", "/root/.pyenv/shims", {}, std::nullopt},
      {"an empty entry is the working directory", "tool", "/usr/bin::/bin", {"./tool", "/bin/tool"}, "./tool"},
      {"a trailing colon too", "tool", "/usr/bin:", {"./tool"}, "./tool"},
      {"a path is taken as given, not searched", "./run.sh", "/usr/bin", {}, std::nullopt},
      {"an absolute path in the view", "/usr/bin/env", "/nowhere", {"/usr/bin/env"}, "/usr/bin/env"},
      {"an empty name is nothing", "", "/usr/bin", {"/usr/bin/"}, std::nullopt},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(resolveCommand(c.command, c.path, viewOf(c.view)) == c.expected);
  }
}

TEST_CASE("command resolution: candidates are the PATH entries joined with the name") {
  CHECK(commandCandidates("sh", "/a:/b") == std::vector<std::string>{"/a/sh", "/b/sh"});
  CHECK(commandCandidates("sh", "") == std::vector<std::string>{"./sh"});
  CHECK(commandCandidates("bin/sh", "/a:/b") == std::vector<std::string>{"bin/sh"});
}

TEST_CASE("command resolution: the step's PATH, or the step default, never the orchestrator's") {
  CHECK(stepPathOf({{"PATH", "/opt/x"}}) == "/opt/x");
  CHECK(stepPathOf({}) == "/usr/local/bin:/usr/bin:/bin");
}

TEST_CASE("command resolution: not found says where it looked and what to do") {
  lw::Error e = commandNotFound("python3", "/shims:/usr/bin", ENOENT);
  CHECK(e.code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(e.message ==
        "command 'python3' not found in the step's view (it is on no entry of the step's PATH; "
        "PATH=/shims:/usr/bin)");
  CHECK(e.hint.find("absolute path") != std::string::npos);
  CHECK(commandNotFound("python3", "/shims", EACCES).message.find("may be executed") != std::string::npos);
}
