#include <doctest/doctest.h>

#include <sys/stat.h>
#include <utime.h>

#include <ctime>

#include "support/temp_dir.h"
#include "verify/git/git_maintenance.h"

using namespace lw::verify;
using namespace std::chrono_literals;

namespace {

// A host where one pid is a git that ends after `livesFor` polls (never: -1).
class FakeProcesses final : public ProcessView {
 public:
  FakeProcesses(std::int64_t pid, int livesFor) : pid_(pid), left_(livesFor) {}
  std::string hostname() const override { return "runner-1"; }
  bool isLiveGitMaintenance(std::int64_t pid) const override {
    if (pid != pid_) return false;
    if (left_ < 0) return true;
    return left_-- > 0;
  }

 private:
  std::int64_t pid_;
  mutable int left_;
};

}  // namespace

TEST_CASE("verify maintenance: gc.pid is '<pid> <host>'") {
  auto lock = parseGcPid("4242 runner-1\n");
  REQUIRE(lock.has_value());
  CHECK(lock->pid == 4242);
  CHECK(lock->host == "runner-1");
  for (const char* bad : {"", "4242", "4242 ", "x runner-1", "-1 runner-1", "0 h", " 12 h"}) {
    CAPTURE(std::string(bad));
    CHECK_FALSE(parseGcPid(bad).has_value());
  }
}

TEST_CASE("verify maintenance: a running gc is waited for, and how long is recorded") {
  lw::test::TempDir dir;
  dir.write("gc.pid", "4242 runner-1\n");
  FakeProcesses gc(4242, 3);
  auto waits = waitForGitMaintenance(dir.root.string(), 10s, 1ms, gc);
  REQUIRE(waits.ok());
  REQUIRE(waits->size() == 1);
  CHECK((*waits)[0].pid == 4242);
  CHECK((*waits)[0].pidFile == dir.root.string() + "/gc.pid");
}

TEST_CASE("verify maintenance: a gc.pid naming nothing git runs here is not waited for") {
  lw::test::TempDir dir;
  FakeProcesses gc(4242, -1);
  SUBCASE("another host") { dir.write("gc.pid", "4242 runner-2\n"); }
  SUBCASE("another process") { dir.write("gc.pid", "4243 runner-1\n"); }
  SUBCASE("older than git's 12 hours") {
    std::string file = dir.write("gc.pid", "4242 runner-1\n");
    struct utimbuf old {};
    old.actime = old.modtime = std::time(nullptr) - 13 * 3600;
    REQUIRE(utime(file.c_str(), &old) == 0);
  }
  SUBCASE("malformed") { dir.write("gc.pid", "garbage"); }
  auto waits = waitForGitMaintenance(dir.root.string(), 1ms, 1ms, gc);
  REQUIRE(waits.ok());
  CHECK(waits->empty());
}

TEST_CASE("verify maintenance: a gc that outlives the timeout fails, naming its pid and file") {
  lw::test::TempDir dir;
  SUBCASE("the repository's") { dir.write("gc.pid", "4242 runner-1\n"); }
  SUBCASE("a submodule's") {
    dir.write("modules/lib/a/HEAD", "ref: refs/heads/main\n");
    dir.write("modules/lib/a/gc.pid", "4242 runner-1\n");
  }
  FakeProcesses gc(4242, -1);
  auto waits = waitForGitMaintenance(dir.root.string(), 20ms, 1ms, gc);
  REQUIRE_FALSE(waits.ok());
  CHECK(waits.error().code == lw::ErrorCode::IoError);
  CHECK(waits.error().message.find("pid 4242") != std::string::npos);
  CHECK(waits.error().subject.ends_with("/gc.pid"));
  CHECK(waits.error().hint.find("kill 4242") != std::string::npos);
}
