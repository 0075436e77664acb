#include <doctest/doctest.h>

#include <string>

#include "host/job_cleanup.h"
#include "host/qualify_cache.h"
#include "host/sha256.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "sandbox/process/step_env.h"

using namespace lw;
using namespace lw::host;

TEST_CASE("job cleanup: the job marker matches exactly in a NUL-separated environ") {
  using namespace std::string_literals;
  const std::string env = "PATH=/bin\0LOOPWRIGHT_JOB=r1/42-1/review\0HOME=/\0"s;
  CHECK(environHasJob(env, "r1/42-1/review"));
  CHECK_FALSE(environHasJob(env, "r1/42-1/rev"));
  CHECK_FALSE(environHasJob(env, "r1/42-1/review2"));
  CHECK_FALSE(environHasJob("XLOOPWRIGHT_JOB=r1/42-1/review"s, "r1/42-1/review"));
  CHECK(environHasJob("LOOPWRIGHT_JOB=j"s, "j"));  // last entry without a trailing NUL
}

TEST_CASE("job cleanup: the start time is field 22 even when comm holds spaces and parentheses") {
  const std::string stat =
      "4242 (evil) name) S 1 4242 4242 0 -1 4194368 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 1844 0 0";
  CHECK(startTimeFromStat(stat) == 987654ULL);
  CHECK_FALSE(startTimeFromStat("4242 (x) S 1"));
  CHECK_FALSE(startTimeFromStat("garbage"));
}

TEST_CASE("job cleanup: only sandbox scratch names are candidates") {
  CHECK(isSandboxScratchName("lw-qualify-AbC123"));
  CHECK(isSandboxScratchName("lw-bwrap-probe-xYz"));
  CHECK(isSandboxScratchName("lw-gvisor-Q1w2E3"));
  // A finished step's scratch renamed for its background removal.
  CHECK(isSandboxScratchName(std::string(sandbox::gvisor::kScratchPrefix) + sandbox::gvisor::kTrashInfix + "Q1w2E3"));
  CHECK_FALSE(isSandboxScratchName("lw-escape-1"));
  CHECK_FALSE(isSandboxScratchName("systemd-private-1"));
}

TEST_CASE("job marker: from LOOPWRIGHT_JOB, else the runner, run, attempt and job, none outside a job") {
  CHECK_FALSE(sandbox::jobMarker(Environment{}));
  Environment gh(
      {{"GITHUB_RUN_ID", "42"}, {"GITHUB_RUN_ATTEMPT", "2"}, {"GITHUB_JOB", "review"}, {"RUNNER_NAME", "r1"}});
  CHECK(sandbox::jobMarker(gh) == "r1/42-2/review");
  gh.set("LOOPWRIGHT_JOB", "mine");
  CHECK(sandbox::jobMarker(gh) == "mine");
  auto env = sandbox::stepEnvironment(gh, {});
  CHECK(env.at("LOOPWRIGHT_JOB") == "mine");
  CHECK(env.count("GITHUB_RUN_ID") == 0);
}

TEST_CASE("sha256: FIPS 180-4 test vectors") {
  CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256Hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("qualify cache: the fingerprint changes with every input") {
  FingerprintInputs base;
  base.kernel = "6.18.0 #1";
  base.loopwrightVersion = "0.1.0";
  base.backendDependencies["linux-bwrap"] = "bwrap /usr/bin/bwrap|2049:1:100:1.0";
  const std::string f = fingerprintOf(base);
  CHECK(f.size() == 64);
  CHECK(fingerprintOf(base) == f);
  auto changed = [&](auto mutate) {
    FingerprintInputs in = base;
    mutate(in);
    return fingerprintOf(in) != f;
  };
  CHECK(changed([](FingerprintInputs& i) { i.kernel = "6.18.1 #1"; }));
  CHECK(changed(
      [](FingerprintInputs& i) { i.backendDependencies["linux-bwrap"] = "bwrap /usr/bin/bwrap|2049:1:100:2.0"; }));
  CHECK(changed([](FingerprintInputs& i) { i.backendDependencies["docker"] = "docker /run/docker.sock unreachable"; }));
  CHECK(changed([](FingerprintInputs& i) { i.loopwrightVersion = "0.1.1"; }));
  CHECK(changed([](FingerprintInputs& i) { i.hostConfigHash = "x"; }));
  CHECK(changed([](FingerprintInputs& i) { i.uid = 1000; }));
  CHECK(changed([](FingerprintInputs& i) { i.options = "linux-bwrap,"; }));
}
