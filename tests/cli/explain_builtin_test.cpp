// `loopwright explain` of a built-in step: the built-in and its summary,
// every parameter with its value and whether it is the default, the tools
// the built-in adds to the step's grants.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "support/run_cli.h"
#include "support/temp_dir.h"

using lw::test::runCli;
using lw::test::TempDir;

namespace {

const std::string kTaskpack =
    "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: b}\nspec:\n"
    "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n"
    "  stages:\n    - name: review\n      on: [pull_request]\n      steps:\n"
    "        - name: security\n          uses: builtin/security\n          with: {maxFindings: 20, disable: "
    "[secrets/]}\n"
    "          tools: [github.labels]\n"
    "        - {name: plain, run: [x]}\n";

const std::string kHost =
    "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\n";

}  // namespace

TEST_CASE("explain: a built-in step shows its summary, each parameter (default or with:) and the tools it adds") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", kTaskpack);
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHost)}};
  auto r = runCli({"explain", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("stage review / step security (role reviewer)\n") != std::string::npos);
  CHECK(r.out.find("  tools                         github.labels\n"
                   "  uses                          builtin/security: deterministic rules on the changed lines: "
                   "secrets, GitHub Actions risks, new dependencies\n"
                   "  with.disable                  [\"secrets/\"]\n"
                   "                                ← step with:\n"
                   "  with.minSeverity              \"notice\"\n"
                   "                                ← default\n"
                   "  with.dependencies             true\n"
                   "                                ← default\n"
                   "  with.maxFindings              20\n"
                   "                                ← step with:\n"
                   "  with.persona                  \"default\"\n"
                   "                                ← default\n"
                   "  tools (built-in)              github.pulls.diff, github.pulls.files, github.file\n"
                   "                                ← granted to builtin/security\n") != std::string::npos);
  // A run: step shows none of it.
  auto plain = r.out.substr(r.out.find("step plain"));
  CHECK(plain.find("uses") == std::string::npos);

  auto j = runCli({"explain", tp, "--json"}, env);
  INFO(j.err);
  REQUIRE(j.status == 0);
  auto steps = boost::json::parse(j.out).at("steps").as_array();
  const auto& builtin = steps.at(0).at("builtin");
  CHECK(builtin.at("uses") == "builtin/security");
  CHECK(builtin.at("tools") == boost::json::parse(R"(["github.pulls.diff","github.pulls.files","github.file"])"));
  CHECK(builtin.at("params").at(3) ==
        boost::json::parse(R"({"name":"maxFindings","type":"integer","value":20,"isDefault":false,)"
                           R"("description":"at most this many findings, the most severe first"})"));
  CHECK(builtin.at("params").at(1).at("isDefault") == true);
  CHECK(steps.at(1).at("builtin").is_null());
}
