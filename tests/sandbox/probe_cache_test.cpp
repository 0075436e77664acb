#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "sandbox/probe_cache.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::sandbox;
namespace fs = std::filesystem;

namespace {

ProbeReport landlockReport() {
  ProbeReport r;
  r.backend = BackendId::LinuxLandlock;
  r.available = true;
  r.version = "landlock ABI 7";
  r.capabilities[Capability::NetworkIsolation] = {Support::Enforced, "observed"};
  r.networkModes[NetworkMode::LoopbackOnly] = {Support::Partial, "no user namespace"};
  return r;
}

Environment env(std::map<std::string, std::string> vars) { return Environment(std::move(vars)); }

constexpr std::int64_t kProbedAt = 1'800'000'000;

}  // namespace

TEST_CASE("probe cache: where it lives, for every backend alike") {
  CHECK(probeCacheDir(env({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}})) == fs::path("/x/loopwright"));
  CHECK(probeCacheDir(env({{"XDG_CACHE_HOME", "relative"}, {"HOME", "/h"}})) == fs::path("/h/.cache/loopwright"));
  CHECK_FALSE(probeCacheDir(env({{"HOME", ""}})).has_value());
  const std::string uid = std::to_string(::getuid());
  CHECK(probeCacheFile(env({{"HOME", "/h"}}), BackendId::LinuxBwrap) ==
        fs::path("/h/.cache/loopwright/linux-bwrap-probe-" + uid + ".json"));
  CHECK(probeCacheFile(env({{"HOME", "/h"}}), BackendId::LinuxLandlock) ==
        fs::path("/h/.cache/loopwright/linux-landlock-probe-" + uid + ".json"));
  CHECK_FALSE(probeCacheFile(Environment{}, BackendId::LinuxBwrap).has_value());
}

TEST_CASE("probe cache: a stored report comes back under its key while it is fresh") {
  lw::test::TempDir s;
  const fs::path file = s.root / "cache" / "linux-landlock-probe.json";
  storeCachedProbe(file, "key-1", landlockReport(), kProbedAt);
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(::stat(file.parent_path().c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);

  auto back = loadCachedProbe(file, "key-1", kProbedAt + kProbeCacheMaxAge.count());
  REQUIRE(back.has_value());
  CHECK(back->backend == BackendId::LinuxLandlock);
  CHECK(back->version == "landlock ABI 7");
  CHECK(back->capabilities.at(Capability::NetworkIsolation).support == Support::Enforced);
  CHECK(back->networkModes.at(NetworkMode::LoopbackOnly).reason == "no user namespace");
}

TEST_CASE("probe cache: another key, a stale or future entry, or a corrupt file is re-probed") {
  lw::test::TempDir s;
  const fs::path file = s.root / "probe.json";
  storeCachedProbe(file, "key-1", landlockReport(), kProbedAt);
  SUBCASE("another key") { CHECK_FALSE(loadCachedProbe(file, "key-2", kProbedAt).has_value()); }
  SUBCASE("older than the maximum age") {
    CHECK_FALSE(loadCachedProbe(file, "key-1", kProbedAt + kProbeCacheMaxAge.count() + 1).has_value());
  }
  SUBCASE("probed in the future (a clock set back)") {
    CHECK_FALSE(loadCachedProbe(file, "key-1", kProbedAt - 1).has_value());
  }
  SUBCASE("corrupt") {
    std::ofstream(file) << R"({"key":"key-1","probedAt":1800000000,"report":{"backend":"nope"}})";
    CHECK_FALSE(loadCachedProbe(file, "key-1", kProbedAt).has_value());
    std::ofstream(file) << "{not json";
    CHECK_FALSE(loadCachedProbe(file, "key-1", kProbedAt).has_value());
  }
  SUBCASE("missing") { CHECK_FALSE(loadCachedProbe(s.root / "none.json", "key-1", kProbedAt).has_value()); }
}

TEST_CASE("probe cache: a directory that cannot be created only costs the cache") {
  lw::test::TempDir s;
  std::ofstream(s.root / "file") << "x";
  const fs::path file = s.root / "file" / "probe.json";
  storeCachedProbe(file, "key-1", landlockReport(), kProbedAt);
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(loadCachedProbe(file, "key-1", kProbedAt).has_value());
}

TEST_CASE("probe cache: the current time is used when none is given") {
  lw::test::TempDir s;
  const fs::path file = s.root / "probe.json";
  storeCachedProbe(file, "key-1", landlockReport());
  CHECK(loadCachedProbe(file, "key-1").has_value());
}
