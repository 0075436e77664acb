// The step cgroups a killed loopwright leaves behind are removed by the next
// one, while its step runs; those of a live loopwright are left alone.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "sandbox/limits/limits_host.h"
#include "support/host_requirement.h"
#include "support/run_cli.h"

using namespace lw::sandbox::limits;

namespace {

// A pid that belonged to a process and no longer does.
pid_t deadPid() {
  pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  ::waitpid(p, nullptr, 0);
  return p;
}

bool isDir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

TEST_CASE("limits: a killed loopwright's step cgroups are swept by the next run, a live one's are kept") {
  const HostLimitFacts& facts = observedHostLimitFacts();
  std::vector<std::string> parents;
  for (const std::string& p : {facts.v2Parent, facts.v1PidsParent, facts.v1MemoryParent})
    if (!p.empty()) parents.push_back(p);
  LW_REQUIRE_HOST(!parents.empty(), "no cgroup this user may create step cgroups in: " + facts.noCgroupReason);
  const std::string dead = "loopwright-" + std::to_string(deadPid()) + "-1";
  const std::string live = "loopwright-" + std::to_string(::getpid()) + "-900";
  for (const std::string& p : parents) {
    REQUIRE(::mkdir((p + "/" + dead).c_str(), 0755) == 0);
    REQUIRE(::mkdir((p + "/" + live).c_str(), 0755) == 0);
  }
  auto run = lw::test::runCli({"sandbox", "exec", "--backend", "direct-dedicated", "--network", "allow-outbound",
                               "--workspace", "/tmp", "--", "/bin/true"});
  INFO(run.err);
  CHECK(run.status == 0);
  for (const std::string& p : parents) {
    CAPTURE(p);
    CHECK_FALSE(isDir(p + "/" + dead));
    CHECK(isDir(p + "/" + live));
    ::rmdir((p + "/" + dead).c_str());
    ::rmdir((p + "/" + live).c_str());
  }
}
