// `eval --lane NAME`: the steps that call a model bound to another lane.
#include <doctest/doctest.h>

#include "policy/load/taskpack_loader.h"
#include "policy/resolve/lane_binding.h"

using namespace lw;

namespace {

Taskpack twoLanes() {
  const std::string text =
      "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n"
      "  lanes:\n"
      "    - {name: primary, api: openai-chat, baseUrl: 'https://x', model: m, apiKeyEnv: K}\n"
      "    - {name: cheap, api: openai-chat, baseUrl: 'https://y', model: n, apiKeyEnv: K}\n"
      "  stages:\n    - name: review\n      on: [pull_request.opened]\n      steps:\n"
      "        - {name: security, uses: builtin/security}\n"
      "        - {name: review, uses: builtin/review, lane: primary}\n"
      "        - {name: own, run: [x], tools: [model.complete], lane: primary}\n";
  auto r = parseTaskpack(text, "tp.yaml", TaskpackLoadOptions{"/home/alice"});
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  return *r;
}

}  // namespace

TEST_CASE("lane binding: every step that calls a model moves to the lane asked for and the others keep none") {
  Taskpack tp = twoLanes();
  REQUIRE(bindModelSteps(tp, "cheap"));
  const std::vector<Step>& steps = tp.stages[0].steps;
  CHECK_FALSE(steps[0].lane.has_value());
  CHECK(steps[1].lane == std::optional<std::string>("cheap"));
  CHECK(steps[2].lane == std::optional<std::string>("cheap"));
}

TEST_CASE("lane binding: a lane the taskpack lacks is a usage error at its lanes with the lanes it has") {
  Taskpack tp = twoLanes();
  auto bound = bindModelSteps(tp, "fast");
  REQUIRE_FALSE(bound);
  const Error& e = bound.error();
  CHECK(e.code == ErrorCode::UsageError);
  CHECK(e.message == "--lane fast: the taskpack has no lane of that name");
  CHECK(e.hint == "its lanes: primary, cheap (spec.lanes, docs/taskpack.md)");
  CHECK(e.subject == "--lane fast");
  REQUIRE(e.location);
  CHECK(e.location->file == "tp.yaml");
  CHECK(e.location->line == 6);
  CHECK(e.location->path == "spec.lanes");
  CHECK(tp.stages[0].steps[1].lane == std::optional<std::string>("primary"));  // nothing was bound
}
