#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lease/local_store.h"
#include "lease/owned_resource.h"
#include "lease/transitions.h"
#include "lease_fixture.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A resource that is a directory named after the token, and a log of what
// happened to it (with the lease phase seen at each step).
struct DirResource {
  fs::path root;
  LocalStore& store;
  std::vector<std::string> log;

  fs::path pathFor(const Lease& l) const { return root / ("wt-" + std::to_string(l.token)); }
  std::string phaseNow() {
    auto all = store.list();
    return all && !all->empty() ? phaseName(all->front().phase) : "?";
  }
  ResourceActions actions() {
    return ResourceActions{[this](const Lease& l) {
                             log.push_back("create while " + phaseNow());
                             fs::create_directories(pathFor(l));
                             return Status(Ok{});
                           },
                           {},
                           [this](const Lease& l) {
                             log.push_back("destroy while " + phaseNow());
                             fs::remove_all(pathFor(l));
                             return Status(Ok{});
                           }};
  }
};

Status refuse(const std::string& why) { return makeError(ErrorCode::IoError, why); }

}  // namespace

TEST_CASE("owned resource: created under an active lease, torn down marker first") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  DirResource res{s.tmp.root, store, {}};
  auto lease = claimAndCreate(store, "wt", "run 1", 10s, res.actions());
  REQUIRE(lease.ok());
  CHECK(fs::is_directory(res.pathFor(*lease)));
  REQUIRE(tearDown(store, *lease, res.actions().destroy).ok());
  CHECK_FALSE(fs::exists(res.pathFor(*lease)));
  CHECK(res.log == std::vector<std::string>{"create while active", "destroy while tearing-down"});
  CHECK(res.phaseNow() == "free");
}

TEST_CASE("owned resource: when ownership cannot be registered the new resource is destroyed") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  DirResource res{s.tmp.root, store, {}};
  ResourceActions actions = res.actions();
  actions.registerOwnership = [](const Lease&) { return refuse("cannot write the owner file"); };
  auto lease = claimAndCreate(store, "wt", "run 1", 10s, actions);
  REQUIRE_FALSE(lease.ok());
  CHECK(lease.error().message == "cannot write the owner file");
  CHECK_FALSE(fs::exists(s.tmp.root / "wt-1"));
  CHECK(res.log == std::vector<std::string>{"create while active", "destroy while tearing-down"});
  CHECK(res.phaseNow() == "free");
}

TEST_CASE("owned resource: a creation that outlived its lease is destroyed, the new holder's lease untouched") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  DirResource res{s.tmp.root, store, {}};
  ResourceActions actions = res.actions();
  actions.create = [&](const Lease& l) {
    fs::create_directories(res.pathFor(l));
    clock.set(kT0 + 10'000);  // a slow creation: the lease expires and run 2 claims
    REQUIRE(store.claim("wt", "run 2", 10s).ok());
    return Status(Ok{});
  };
  auto lease = claimAndCreate(store, "wt", "run 1", 10s, actions);
  REQUIRE_FALSE(lease.ok());
  CHECK(lease.error().code == ErrorCode::LeaseLost);
  CHECK_FALSE(fs::exists(s.tmp.root / "wt-1"));
  auto all = store.list();
  REQUIRE(all.ok());
  CHECK(all->front().holder == "run 2");
  CHECK(all->front().phase == Phase::Active);
}

TEST_CASE("owned resource: a failed creation frees the lease, a refused claim creates nothing") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  DirResource res{s.tmp.root, store, {}};
  ResourceActions failing = res.actions();
  failing.create = [](const Lease&) { return refuse("git worktree add failed"); };
  auto first = claimAndCreate(store, "wt", "run 1", 10s, failing);
  REQUIRE_FALSE(first.ok());
  CHECK(res.log == std::vector<std::string>{"destroy while tearing-down"});
  auto held = claimAndCreate(store, "wt", "run 2", 10s, res.actions());
  REQUIRE(held.ok());
  CHECK(held->token == 2);
  res.log.clear();
  auto refused = claimAndCreate(store, "wt", "run 3", 10s, res.actions());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::LeaseUnavailable);
  CHECK(res.log.empty());
}

TEST_CASE("owned resource: a failed destroy leaves the marker, a stale lease destroys nothing") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  DirResource res{s.tmp.root, store, {}};
  auto held = claimAndCreate(store, "wt", "run 1", 10s, res.actions());
  REQUIRE(held.ok());
  auto failed = tearDown(store, *held, [](const Lease&) { return refuse("device busy"); });
  REQUIRE_FALSE(failed.ok());
  clock.set(kT0 + 86'400'000);
  CHECK(store.claim("wt", "run 2", 10s).error().code == ErrorCode::LeaseUnavailable);
  REQUIRE(store.release(*held).ok());
  auto next = store.claim("wt", "run 2", 10s);
  REQUIRE(next.ok());
  res.log.clear();
  auto stale = tearDown(store, *held, res.actions().destroy);
  REQUIRE_FALSE(stale.ok());
  CHECK(stale.error().code == ErrorCode::LeaseLost);
  CHECK(res.log.empty());
}
