// builtin/reproduce runs an issue's code: its catalogue entry asks for L3
// and networkMode none, which the taskpack's defaults cannot lower and only
// the step's own isolation: / sandbox.networkMode can.
#include <doctest/doctest.h>

#include "policy/load/taskpack_loader.h"
#include "policy/resolve/resolve.h"

using namespace lw;

namespace {

const std::string kHome = "/home/alice";

// One stage on issues with the step `step` (a flow mapping), after `spec`.
EffectiveStep resolveOne(const std::string& spec, const std::string& step, bool githubActions = false) {
  std::string text = "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + spec +
                     "  stages:\n    - name: triage\n      on: [issues]\n      steps:\n        - " + step + "\n";
  auto tp = parseTaskpack(text, "tp.yaml", TaskpackLoadOptions{kHome});
  REQUIRE_MESSAGE(tp.ok(), (tp.ok() ? "" : tp.error().diagnostics.front().message));
  auto r = resolvePolicies(*tp, HostConfig{}, {githubActions, kHome});
  REQUIRE(r.ok());
  return r->front();
}

}  // namespace

TEST_CASE("builtin defaults: builtin/reproduce asks for L3 with networkMode none by default") {
  const EffectiveStep s = resolveOne("", "{name: repro, uses: builtin/reproduce}");
  CHECK(s.sandbox.minIsolation == Isolation::L3);
  CHECK(s.sandbox.networkMode == NetworkMode::None);
  CHECK(s.origins.at("isolation") == "default of builtin/reproduce (the step's own isolation: lowers it)");
  CHECK(s.origins.at("networkMode") == "default of builtin/reproduce (the step's own sandbox.networkMode changes it)");
}

TEST_CASE("builtin defaults: the taskpack's spec.isolation and spec.sandbox do not lower builtin/reproduce") {
  const EffectiveStep s =
      resolveOne("  isolation: L1\n  sandbox: {preferredBackends: [linux-bwrap], networkMode: allow-outbound}\n",
                 "{name: repro, uses: builtin/reproduce}");
  CHECK(s.sandbox.minIsolation == Isolation::L3);
  CHECK(s.sandbox.networkMode == NetworkMode::None);
}

TEST_CASE("builtin defaults: GitHub Actions' default sandbox does not open the network of builtin/reproduce") {
  const EffectiveStep s = resolveOne("", "{name: repro, uses: builtin/reproduce}", true);
  CHECK(s.githubActionsDefault);
  CHECK(s.sandbox.networkMode == NetworkMode::None);
  CHECK(s.sandbox.minIsolation == Isolation::L3);
}

TEST_CASE("builtin defaults: the step's own isolation and networkMode lower builtin/reproduce explicitly") {
  const EffectiveStep s =
      resolveOne("", "{name: repro, uses: builtin/reproduce, isolation: L1, sandbox: {networkMode: loopback-only}}");
  CHECK(s.sandbox.minIsolation == Isolation::L1);
  CHECK(s.sandbox.networkMode == NetworkMode::LoopbackOnly);
  CHECK(s.origins.at("isolation").starts_with("step isolation"));
  CHECK(s.origins.at("networkMode").starts_with("step sandbox override"));
}

TEST_CASE("builtin defaults: a built-in without defaults keeps the taskpack's level and network") {
  const EffectiveStep s = resolveOne("  sandbox: {networkMode: allow-outbound}\n", "{name: t, uses: builtin/triage}");
  CHECK(s.sandbox.minIsolation == Isolation::L1);
  CHECK(s.sandbox.networkMode == NetworkMode::AllowOutbound);
}
