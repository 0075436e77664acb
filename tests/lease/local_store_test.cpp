#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lease/local_store.h"
#include "lease_fixture.h"
#include "support/read_file.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

struct CorruptCase {
  std::string name;
  std::string content;
};

std::vector<CorruptCase> corruptCases() {
  return {
      {"garbage", "\x01\x02 not json at all"},
      {"truncated JSON", R"({"schema":1,"resource":"wt","phase":"active","holder":"run 1","tok)"},
      {"wrong types",
       R"({"schema":1,"resource":"wt","phase":"active","holder":7,"token":"1","expiresAtMs":1,"claimedAtMs":1})"},
      {"negative token",
       R"({"schema":1,"resource":"wt","phase":"active","holder":"h","token":-1,"expiresAtMs":1,"claimedAtMs":1})"},
      {"another resource's name",
       R"({"schema":1,"resource":"other","phase":"free","holder":"","token":1,"expiresAtMs":0,"claimedAtMs":0})"},
      {"an unknown phase",
       R"({"schema":1,"resource":"wt","phase":"gone","holder":"","token":1,"expiresAtMs":0,"claimedAtMs":0})"},
      {"a schema from the future",
       R"({"schema":2,"resource":"wt","phase":"free","holder":"","token":1,"expiresAtMs":0,"claimedAtMs":0})"},
      {"an empty file", ""},
  };
}

// Every operation on a corrupt record of "wt" in `storeDir`: what went
// against expectations, or "" (runs as root and, in a child, as lwtest).
std::string corruptRecordFailsClosed(const fs::path& storeDir, const CorruptCase& c) {
  LocalStore store(storeDir, [] { return kT0 + 10'000'000; });
  if (auto made = store.claim("probe", "h", 1s); !made) return "cannot create the store";
  const fs::path file = storeDir / "wt.json";
  { std::ofstream(file, std::ios::binary) << c.content; }
  const Lease held{"wt", Phase::Active, "run 1", 1, kT0 + 20'000'000, kT0};
  auto err = [](const auto& r) { return r.ok() ? std::optional<Error>() : std::optional(r.error()); };
  std::vector<std::pair<std::string, std::optional<Error>>> outcomes;
  outcomes.push_back({"claim", err(store.claim("wt", "run 2", 1s))});
  outcomes.push_back({"renew", err(store.renew(held, 1s))});
  outcomes.push_back({"beginTeardown", err(store.beginTeardown(held))});
  outcomes.push_back({"release", err(store.release(held))});
  outcomes.push_back({"checkFence", err(store.checkFence(held))});
  outcomes.push_back({"list", err(store.list())});
  std::string problems;
  for (const auto& [op, e] : outcomes) {
    if (!e)
      problems += c.name + ": " + op + " succeeded\n";
    else if (e->code != ErrorCode::LeaseUnavailable || e->subject != file.string())
      problems += c.name + ": " + op + " failed with " + std::string(codeName(e->code)) + " on " + e->subject + "\n";
  }
  if (lw::test::readFile(file) != c.content) problems += std::string(c.name) + ": the record was overwritten\n";
  auto survey = store.survey();
  if (!survey || survey->size() != 2 || !(*survey)[1].unreadable)
    problems += std::string(c.name) + ": survey does not show it as unreadable\n";
  return problems;
}

}  // namespace

TEST_CASE("local store: a claim creates the directory 0700 and writes a versioned record") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  auto lease = store.claim("worktree.12.build.fmt", "run 12 step fmt", 30s);
  REQUIRE(lease.ok());
  CHECK(lease->token == 1);
  CHECK(lease->expiresAtMs == kT0 + 30'000);
  struct stat st {};
  REQUIRE(::stat(s.store.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  CHECK(lw::test::readFile(s.store / "worktree.12.build.fmt.json") ==
        "{\"schema\":1,\"resource\":\"worktree.12.build.fmt\",\"phase\":\"active\",\"holder\":"
        "\"run 12 step fmt\",\"token\":1,\"expiresAtMs\":1700000030000,\"claimedAtMs\":"
        "1700000000000}\n");
  CHECK(fs::exists(s.store / "worktree.12.build.fmt.lock"));
}

TEST_CASE("local store: a teardown in progress is not claimable, even long after expiry") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  auto held = store.claim("wt", "run 1", 10s);
  REQUIRE(held.ok());
  REQUIRE(store.beginTeardown(*held).ok());
  for (std::int64_t later : {kT0 + 1, kT0 + 10'000, kT0 + 86'400'000}) {
    clock.set(later);
    auto other = store.claim("wt", "run 2", 10s);
    REQUIRE_FALSE(other.ok());
    CHECK(other.error().code == ErrorCode::LeaseUnavailable);
  }
  REQUIRE(store.release(*held).ok());
  auto next = store.claim("wt", "run 2", 10s);
  REQUIRE(next.ok());
  CHECK(next->token == 2);
}

TEST_CASE("local store: a stale fencing token is refused on renew, teardown, release and fence") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  auto first = store.claim("wt", "run 1", 10s);
  REQUIRE(first.ok());
  clock.set(kT0 + 10'000);
  auto second = store.claim("wt", "run 2", 10s);
  REQUIRE(second.ok());
  CHECK(second->token == 2);
  const std::string stale = "token 1 for wt is stale: the current token is 2 (held by run 2)";
  auto renewed = store.renew(*first, 10s);
  auto torn = store.beginTeardown(*first);
  auto released = store.release(*first);
  auto fenced = store.checkFence(*first);
  for (const Error* e : {&renewed.error(), &torn.error(), &released.error(), &fenced.error()}) {
    CHECK(e->code == ErrorCode::LeaseLost);
    CHECK(e->message == stale);
  }
  CHECK(store.checkFence(*second).ok());
  auto leases = store.list();
  REQUIRE(leases.ok());
  REQUIRE(leases->size() == 1);
  CHECK((*leases)[0].holder == "run 2");
}

TEST_CASE("local store: a corrupt record fails closed and is never overwritten") {
  for (const CorruptCase& c : corruptCases()) {
    CAPTURE(c.name);
    StoreScratch s;
    CHECK(corruptRecordFailsClosed(s.store, c) == "");
  }
}

TEST_CASE("local store: a corrupt record fails closed for an unprivileged user too") {
  auto user = lwtestUser();
  if (!user) {
    MESSAGE("[SKIPPED] not root or no user lwtest: the unprivileged run needs both");
    return;
  }
  for (const CorruptCase& c : corruptCases()) {
    CAPTURE(c.name);
    StoreScratch s;
    s.ownedBy(*user);
    CHECK(runAs(*user, [&] { return corruptRecordFailsClosed(s.store, c); }) == "");
  }
}

TEST_CASE("local store: a record that is a symlink or a directory is unreadable, not free") {
  StoreScratch s;
  LocalStore store(s.store, [] { return kT0; });
  REQUIRE(store.claim("probe", "h", 1s).ok());
  fs::create_symlink("/etc/hostname", s.store / "link.json");
  fs::create_directory(s.store / "dir.json");
  for (const char* name : {"link", "dir"}) {
    CAPTURE(name);
    auto claimed = store.claim(name, "h", 1s);
    REQUIRE_FALSE(claimed.ok());
    CHECK(claimed.error().code == ErrorCode::LeaseUnavailable);
  }
}

TEST_CASE("local store: store directories that could forge ownership are refused") {
  StoreScratch s;
  fs::create_directory(s.tmp.root / "real");
  ::chmod((s.tmp.root / "real").c_str(), 0755);
  fs::create_directory_symlink(s.tmp.root / "real", s.tmp.root / "link");
  fs::create_directory(s.tmp.root / "shared");
  ::chmod((s.tmp.root / "shared").c_str(), 0777);
  s.tmp.write("file", "x");
  std::vector<std::pair<std::string, std::string>> refused = {
      {"link", "it is a symlink"},
      {"shared", "it is writable by group or others"},
      {"file", "it is not a directory"},
  };
  if (auto user = lwtestUser()) {
    fs::create_directory(s.tmp.root / "theirs");
    ::chmod((s.tmp.root / "theirs").c_str(), 0700);
    REQUIRE(::chown((s.tmp.root / "theirs").c_str(), user->pw_uid, user->pw_gid) == 0);
    refused.push_back({"theirs", "it is owned by uid " + std::to_string(user->pw_uid) + ", not by uid 0"});
    // And the other way round: lwtest refuses root's store.
    CHECK(runAs(*user,
                [&] {
                  auto r = LocalStore(s.tmp.root / "real", [] { return kT0; }).claim("wt", "h", 1s);
                  return r.ok() ? std::string("lwtest claimed in root's store")
                                : std::string(codeName(r.error().code)) + ": " + r.error().message;
                }) == "LEASE_UNAVAILABLE: refusing the lease store " + (s.tmp.root / "real").string() +
                          ": it is owned by uid 0, not by uid " + std::to_string(user->pw_uid));
  } else {
    MESSAGE("[SKIPPED] not root or no user lwtest: the other-owner case needs both");
  }
  for (const auto& [name, why] : refused) {
    CAPTURE(name);
    auto r = LocalStore(s.tmp.root / name, [] { return kT0; }).claim("wt", "h", 1s);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::LeaseUnavailable);
    CHECK(r.error().message == "refusing the lease store " + (s.tmp.root / name).string() + ": " + why);
  }
  CHECK(LocalStore(s.tmp.root / "real", [] { return kT0; }).claim("wt", "h", 1s).ok());
}

TEST_CASE("local store: resource names are file names, nothing more") {
  StoreScratch s;
  LocalStore store(s.store, [] { return kT0; });
  const std::string longest(128, 'a');
  CHECK(store.claim(longest, "h", 1s).ok());
  CHECK(store.claim("a-Z_0.9", "h", 1s).ok());
  for (const std::string& bad :
       {std::string(), std::string(129, 'a'), std::string(".hidden"), std::string(".."), std::string("a/b"),
        std::string("a b"), std::string("wt\n"), std::string("\xc3\xa9")}) {
    CAPTURE(bad);
    auto r = store.claim(bad, "h", 1s);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::UsageError);
  }
}

TEST_CASE("local store: a free record keeps its last token across processes' stores") {
  StoreScratch s;
  ManualClock clock;
  {
    LocalStore store(s.store, clock.fn());
    auto held = store.claim("wt", "run 1", 1s);
    REQUIRE(held.ok());
    REQUIRE(store.release(*held).ok());
  }
  LocalStore reopened(s.store, clock.fn());
  auto next = reopened.claim("wt", "run 2", 1s);
  REQUIRE(next.ok());
  CHECK(next->token == 2);
}
