#include <doctest/doctest.h>

#include "host/runner_dotenv.h"

using namespace lw;
using namespace lw::host;

TEST_CASE("runner .env: hooks are added once, other lines kept, a second install changes nothing") {
  const std::string before = "LANG=C.UTF-8\nhttps_proxy=http://proxy:3128\n";
  auto once = withHooks(before, "/r/loopwright-hooks/job-started.sh", "/r/loopwright-hooks/job-completed.sh", false);
  REQUIRE(once.ok());
  CHECK(*once == before +
                     "ACTIONS_RUNNER_HOOK_JOB_STARTED=/r/loopwright-hooks/job-started.sh\n"
                     "ACTIONS_RUNNER_HOOK_JOB_COMPLETED=/r/loopwright-hooks/job-completed.sh\n");
  auto twice = withHooks(*once, "/r/loopwright-hooks/job-started.sh", "/r/loopwright-hooks/job-completed.sh", false);
  REQUIRE(twice.ok());
  CHECK(*twice == *once);
  CHECK(dotEnvValue(*once, kHookStartedKey) == "/r/loopwright-hooks/job-started.sh");
}

TEST_CASE("runner .env: a hook pointing elsewhere is kept unless replace, duplicates collapse") {
  const std::string other = "ACTIONS_RUNNER_HOOK_JOB_STARTED=/opt/mine.sh\n";
  auto r = withHooks(other, "/a.sh", "/b.sh", false);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::UsageError);
  CHECK(r.error().message == "ACTIONS_RUNNER_HOOK_JOB_STARTED is already set to /opt/mine.sh in the runner's .env");

  auto replaced = withHooks(other + "X=1\n" + other, "/a.sh", "/b.sh", true);
  REQUIRE(replaced.ok());
  CHECK(*replaced == "ACTIONS_RUNNER_HOOK_JOB_STARTED=/a.sh\nX=1\nACTIONS_RUNNER_HOOK_JOB_COMPLETED=/b.sh\n");
}

TEST_CASE("runner .env: the hook script execs loopwright, quoted for the shell") {
  std::string s = hookScript("/opt/it's/loopwright", "job-completed");
  CHECK(s.rfind("#!/usr/bin/env bash\n", 0) == 0);
  CHECK(s.find("exec '/opt/it'\\''s/loopwright' runner hook job-completed\n") != std::string::npos);
}
