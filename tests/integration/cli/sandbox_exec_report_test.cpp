// `loopwright sandbox exec --report`: what the report says about the step's
// leftover processes is what loopwright observed, never a guess.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "support/host_requirement.h"
#include "support/run_cli.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using lw::test::runCli;

namespace {

// Runs a step that leaves a background process behind on `backend` with
// --report; the run's exit status and the report's text.
struct DaemonStep {
  lw::test::CliRun run;
  std::string report;
};

DaemonStep runDaemonStep(const std::string& backend, const std::string& network = "none") {
  lw::test::TempDir scratch;
  fs::create_directories(scratch.root / "ws");
  const fs::path report = scratch.root / "report.json";
  DaemonStep d;
  d.run =
      runCli({"sandbox", "exec", "--backend", backend, "--network", network, "--workspace",
              (scratch.root / "ws").string(), "--report", report.string(), "--", "/bin/sh", "-c", "sleep 60 & exit 0"});
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  d.report = text.str();
  return d;
}

}  // namespace

TEST_CASE("sandbox exec report: loopwright's subreaper counts the descendants it killed") {
  // The one backend without a pid namespace: its supervisor kills and counts.
  DaemonStep d = runDaemonStep("direct-dedicated", "allow-outbound");  // it isolates nothing
  INFO(d.run.out << d.run.err);
  LW_REQUIRE_HOST(d.run.status != 3, "direct-dedicated cannot run here: " + d.run.err);
  CHECK(d.run.status == 0);
  auto r = boost::json::parse(d.report).as_object();
  CHECK(r.at("backend").as_string() == "direct-dedicated");
  CHECK(r.at("exitStatus").as_int64() == 0);
  CHECK(r.at("descendantsKilled").as_int64() == 1);
  CHECK(r.at("anyDescendantKilled").as_bool());
}

TEST_CASE("sandbox exec report: a pid namespace's cleanup is not claimed as a count") {
  for (const char* backend : {"linux-bwrap", "linux-landlock"}) {
    CAPTURE(backend);
    DaemonStep d = runDaemonStep(backend);
    INFO(d.run.out << d.run.err);
    LW_REQUIRE_HOST(d.run.status != 3, std::string(backend) + " cannot run here: " + d.run.err);
    CHECK(d.run.status == 0);
    auto r = boost::json::parse(d.report).as_object();
    CHECK(r.at("backend").as_string() == backend);
    CHECK(r.at("exitStatus").as_int64() == 0);
    // The kernel ended the sleeper with the namespace; how many it ended is
    // not visible to loopwright, so the report says so (null), not 0.
    CHECK(r.at("descendantsKilled").is_null());
    CHECK(r.at("anyDescendantKilled").is_null());
    CHECK_FALSE(r.at("capabilitiesEnforced").as_array().empty());
  }
}
