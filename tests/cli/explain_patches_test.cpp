// `loopwright explain` names how an author's accepted change is published.
#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "support/run_cli.h"
#include "support/temp_dir.h"

using lw::test::runCli;
using lw::test::TempDir;

TEST_CASE("explain: publication.patches is shown, as text and as JSON") {
  TempDir dir;
  const std::string head =
      "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: p}\nspec:\n"
      "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n"
      "  stages:\n    - name: fix\n      on: [pull_request.opened]\n      steps:\n"
      "        - {name: a, run: [x]}\n";
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_HOST_CONFIG",
       dir.write("host.yaml",
                 "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\n")}};
  auto byDefault = runCli({"explain", dir.write("d.yaml", head)}, env);
  INFO(byDefault.out << byDefault.err);
  CHECK(byDefault.out.find("\npatches      suggestions (publication.patches: how an author step's accepted change is "
                           "published)\n") != std::string::npos);
  const std::string branch = dir.write("b.yaml", head + "  publication: {patches: branch}\n");
  CHECK(runCli({"explain", branch}, env).out.find("\npatches      branch (") != std::string::npos);
  auto j = runCli({"explain", branch, "--json"}, env);
  CHECK(boost::json::parse(j.out).at("publication").at("patches").as_string() == "branch");
}
