#include <doctest/doctest.h>

#include "sandbox/process/step_env.h"

using namespace lw;

TEST_CASE("step env: only allow-listed host variables pass, then the step's own on top") {
  Environment host({{"PATH", "/usr/bin"},
                    {"LANG", "C.UTF-8"},
                    {"LC_TIME", "C"},
                    {"GITHUB_TOKEN", "ghs_x"},
                    {"AWS_SECRET_ACCESS_KEY", "y"},
                    {"HOME", "/root"},
                    {"SSH_AUTH_SOCK", "/tmp/agent"}});
  auto env = sandbox::stepEnvironment(host, {{"LOOPWRIGHT_OUT", "/out"}, {"PATH", "/bin"}});
  CHECK(env == std::map<std::string, std::string>{
                   {"LANG", "C.UTF-8"}, {"LC_TIME", "C"}, {"LOOPWRIGHT_OUT", "/out"}, {"PATH", "/bin"}});
}

TEST_CASE("step env: PATH gets a default when the host has none") {
  auto env = sandbox::stepEnvironment(Environment{}, {});
  CHECK(env.at("PATH") == "/usr/local/bin:/usr/bin:/bin");
}
