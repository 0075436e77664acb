#include <doctest/doctest.h>

#include "cli/args.h"

using lw::cli::Args;
using lw::cli::OptionSpec;

namespace {
const std::vector<OptionSpec> kSpecs = {
    {"json", "", "json"}, {"backend", "B", "backend", true}, {"timeout", "SECONDS", "t"}};
}

TEST_CASE("args: options, repeatable values, positionals and the command after --") {
  auto a =
      Args::parse({"--backend", "linux-bwrap", "--backend=docker", "--json", "file.yaml", "--", "/bin/echo", "--json"},
                  kSpecs, 1, true);
  REQUIRE(a.ok());
  CHECK(a->flag("json"));
  CHECK(a->values("backend") == std::vector<std::string>{"linux-bwrap", "docker"});
  CHECK(a->positionals() == std::vector<std::string>{"file.yaml"});
  CHECK(a->command() == std::vector<std::string>{"/bin/echo", "--json"});
}

TEST_CASE("args: usage errors") {
  SUBCASE("unknown option") {
    CHECK(Args::parse({"--nope"}, kSpecs, 0, false).error().message == "unknown option '--nope'");
  }
  SUBCASE("missing value") { CHECK(!Args::parse({"--timeout"}, kSpecs, 0, false).ok()); }
  SUBCASE("non-repeatable twice") { CHECK(!Args::parse({"--timeout", "1", "--timeout", "2"}, kSpecs, 0, false).ok()); }
  SUBCASE("too many positionals") { CHECK(!Args::parse({"a", "b"}, kSpecs, 1, false).ok()); }
  SUBCASE("-- without a command") { CHECK(!Args::parse({"--"}, kSpecs, 0, false).ok()); }
  SUBCASE("flag with a value") { CHECK(!Args::parse({"--json=1"}, kSpecs, 0, false).ok()); }
}
