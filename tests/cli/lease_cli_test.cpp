// `loopwright lease …` as users and scripts run it: exit statuses, --json,
// the default store in the host config's state directory, and two claims
// from two processes at once.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <boost/json/parse.hpp>

#include "support/read_file.h"
#include "support/run_cli.h"
#include "support/temp_dir.h"

using lw::test::runCli;
using lw::test::TempDir;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

json::object jsonOf(const lw::test::CliRun& run) {
  boost::system::error_code ec;
  json::value v = json::parse(run.out, ec);
  REQUIRE_MESSAGE(!ec, (run.out + run.err));
  return v.as_object();
}

}  // namespace

TEST_CASE("cli lease: claim, refuse a second holder, renew, list, release, claim again") {
  TempDir t;
  const std::string store = (t.root / "leases").string();
  auto claimed = runCli({"lease", "claim", "wt.1", "--holder", "run 1", "--ttl", "60", "--store", store, "--json"});
  REQUIRE(claimed.status == 0);
  CHECK(jsonOf(claimed)["token"].as_int64() == 1);
  CHECK(jsonOf(claimed)["phase"].as_string() == "active");

  auto refused = runCli({"lease", "claim", "wt.1", "--holder", "run 2", "--ttl", "60", "--store", store});
  CHECK(refused.status == 7);
  CHECK(refused.err.find("loopwright: error[LEASE_UNAVAILABLE]: wt.1 is held by run 1 (token 1) until ") == 0);

  auto renewed = runCli({"lease", "renew", "wt.1", "--token", "1", "--ttl", "120", "--store", store, "--json"});
  REQUIRE(renewed.status == 0);
  CHECK(jsonOf(renewed)["expiresAtMs"].as_int64() > jsonOf(claimed)["expiresAtMs"].as_int64());

  auto listed = runCli({"lease", "list", "--store", store, "--json"});
  REQUIRE(listed.status == 0);
  auto leases = jsonOf(listed)["leases"].as_array();
  REQUIRE(leases.size() == 1);
  CHECK(leases[0].as_object().at("holder").as_string() == "run 1");

  auto released = runCli({"lease", "release", "wt.1", "--token", "1", "--store", store});
  REQUIRE(released.status == 0);
  CHECK(released.out == "loopwright: released wt.1 (token 1)\n");
  auto again = runCli({"lease", "claim", "wt.1", "--holder", "run 2", "--ttl", "60", "--store", store, "--json"});
  REQUIRE(again.status == 0);
  CHECK(jsonOf(again)["token"].as_int64() == 2);
}

TEST_CASE("cli lease: a stale token exits 7 with LEASE_LOST, bad input exits 2") {
  TempDir t;
  const std::string store = (t.root / "leases").string();
  REQUIRE(runCli({"lease", "claim", "wt", "--holder", "h", "--ttl", "60", "--store", store}).status == 0);
  for (const char* verb : {"renew", "release"}) {
    CAPTURE(verb);
    std::vector<std::string> args = {"lease", verb, "wt", "--token", "9", "--store", store, "--json"};
    if (std::string(verb) == "renew") args.insert(args.end(), {"--ttl", "5"});
    auto stale = runCli(args);
    CHECK(stale.status == 7);
    CHECK(jsonOf(stale)["code"].as_string() == "LEASE_LOST");
    CHECK(jsonOf(stale)["message"].as_string() == "token 9 for wt is stale: the current token is 1 (held by h)");
  }
  const std::vector<std::vector<std::string>> bad = {
      {"lease", "claim", "../wt", "--holder", "h", "--ttl", "60"},
      {"lease", "claim", "wt", "--ttl", "60"},
      {"lease", "claim", "wt", "--holder", "h", "--ttl", "0"},
      {"lease", "claim", "wt", "--holder", "h", "--ttl", "1e3"},
      {"lease", "renew", "wt", "--token", "-1", "--ttl", "60"},
      {"lease", "release", "wt"},
      {"lease", "release", "wt", "extra", "--token", "1"},
  };
  for (std::vector<std::string> args : bad) {
    CAPTURE(args[1] + " " + args[2]);
    args.insert(args.end(), {"--store", store});
    auto run = runCli(args);
    CHECK(run.status == 2);
    CHECK(run.err.find("error[USAGE_ERROR]") != std::string::npos);
  }
}

TEST_CASE("cli lease: a corrupt record is listed as corrupt and every command refuses it") {
  TempDir t;
  const fs::path store = t.root / "leases";
  REQUIRE(runCli({"lease", "claim", "ok", "--holder", "h", "--ttl", "60", "--store", store.string()}).status == 0);
  const std::string garbage = "{\"schema\":1,\"resource\":\"wt\",\"pha";
  { std::ofstream(store / "wt.json") << garbage; }
  auto listed = runCli({"lease", "list", "--store", store.string()});
  REQUIRE(listed.status == 0);
  CHECK(listed.out.find("wt  corrupt  the lease record " + (store / "wt.json").string() + " is corrupt") !=
        std::string::npos);
  CHECK(listed.out.find("ok  active  token 1  h  until ") != std::string::npos);
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"claim", "wt", "--holder", "h", "--ttl", "60"},
                                             {"renew", "wt", "--token", "1", "--ttl", "60"},
                                             {"release", "wt", "--token", "1"}}) {
    CAPTURE(args[0]);
    args.insert(args.begin(), "lease");
    args.insert(args.end(), {"--store", store.string()});
    auto run = runCli(args);
    CHECK(run.status == 7);
    CHECK(run.err.find("error[LEASE_UNAVAILABLE]") != std::string::npos);
  }
  CHECK(lw::test::readFile(store / "wt.json") == garbage);
}

TEST_CASE("cli lease: the default store is <state dir>/leases from the host config") {
  TempDir t;
  const std::string config = t.write("host.yaml",
                                     "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                                     "stateDir: " +
                                         (t.root / "state").string() + "\n");
  auto run = runCli({"lease", "claim", "wt", "--holder", "h", "--ttl", "60"}, {{"LOOPWRIGHT_HOST_CONFIG", config}});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(fs::exists(t.root / "state" / "leases" / "wt.json"));
}

TEST_CASE("cli lease: two claim processes at once, exactly one wins, 20 rounds") {
  TempDir t;
  const std::string store = (t.root / "leases").string();
  for (int round = 0; round < 20; ++round) {
    CAPTURE(round);
    std::vector<std::unique_ptr<lw::sandbox::process::RunningProcess>> running;
    for (const char* holder : {"a", "b"}) {
      lw::sandbox::process::SpawnRequest req;
      req.argv = {LOOPWRIGHT_BIN, "lease",   "claim", "r" + std::to_string(round), "--holder", holder, "--ttl",
                  "60",           "--store", store};
      req.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/root"}};
      auto p = lw::sandbox::process::spawn(req);
      REQUIRE(p.ok());
      running.push_back(std::move(*p));
    }
    std::vector<int> statuses;
    for (auto& p : running)
      statuses.push_back(p->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60)).status());
    std::sort(statuses.begin(), statuses.end());
    CHECK(statuses == std::vector<int>{0, 7});
  }
}
