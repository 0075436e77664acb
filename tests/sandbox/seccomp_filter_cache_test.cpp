#include <doctest/doctest.h>

#include <memory>
#include <thread>
#include <vector>

#include "sandbox/seccomp/seccomp_filter.h"

using namespace lw::sandbox::seccomp;
using lw::NetworkMode;

TEST_CASE("seccomp filter cache: one program per options, the same one to parallel launches") {
  FilterCache cache;
  std::vector<std::shared_ptr<const BpfProgram>> got(8);
  std::vector<std::thread> launches;
  for (std::size_t i = 0; i < got.size(); ++i)
    launches.emplace_back([&, i] {
      auto p = cache.get({NetworkMode::None, true});
      if (p) got[i] = *p;
    });
  for (auto& t : launches) t.join();
  REQUIRE(got[0] != nullptr);
  for (const auto& p : got) CHECK(p == got[0]);

  auto other = cache.get({NetworkMode::LoopbackOnly, true});
  REQUIRE(other.ok());
  CHECK(*other != got[0]);
  auto same = cache.get({NetworkMode::None, true});
  REQUIRE(same.ok());
  CHECK(*same == got[0]);
  // The cached program is the one compile() makes from the same policy.
  auto direct = compile(buildPolicy({NetworkMode::None, true}));
  REQUIRE(direct.ok());
  CHECK(direct->instructions().size() == got[0]->instructions().size());
}
