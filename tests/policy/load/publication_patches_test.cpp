#include <doctest/doctest.h>

#include "policy/load/taskpack_loader.h"

using namespace lw;

namespace {

Result<Taskpack> withPublication(const std::string& publication) {
  return parseTaskpack(
      "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n"
      "  stages:\n    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
      "        - {name: a, run: [true]}\n" +
          publication,
      "tp.yaml", TaskpackLoadOptions{"/home/alice"});
}

}  // namespace

TEST_CASE("taskpack publication.patches: suggestions by default, branch and none when written") {
  auto d = withPublication("");
  REQUIRE(d.ok());
  CHECK(d->publication.patches == PatchPublication::Suggestions);
  for (auto [text, mode] : {std::pair{"suggestions", PatchPublication::Suggestions},
                            std::pair{"branch", PatchPublication::Branch}, std::pair{"none", PatchPublication::None}}) {
    auto r = withPublication(std::string("  publication: {patches: ") + text + "}\n");
    REQUIRE(r.ok());
    CHECK(r->publication.patches == mode);
    CHECK(toString(r->publication.patches) == text);
  }
}

TEST_CASE("taskpack publication.patches: a wrong value is refused at its line and column with a did-you-mean") {
  auto r = withPublication("  publication:\n    patches: branches\n");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::TaskpackInvalid);
  REQUIRE(r.error().diagnostics.size() == 1);
  const auto& d = r.error().diagnostics[0];
  CHECK(d.location.file == "tp.yaml");
  CHECK(d.location.line == 11);
  CHECK(d.location.column == 14);
  CHECK(d.location.path == "spec.publication.patches");
  CHECK(d.message == "'branches' is not one of 'suggestions', 'branch' or 'none'");
  CHECK(d.hint == "did you mean 'branch'?");
}

TEST_CASE("publication vocabulary: each name reads back as its value, and no other name does") {
  for (PatchPublication p : {PatchPublication::Suggestions, PatchPublication::Branch, PatchPublication::None})
    CHECK(patchPublicationNamed(toString(p)) == p);
  for (FailOn f : {FailOn::Error, FailOn::Warning, FailOn::Never}) CHECK(failOnNamed(toString(f)) == f);
  for (ReviewMode m : {ReviewMode::Comment, ReviewMode::RequestChanges, ReviewMode::None})
    CHECK(reviewModeNamed(toString(m)) == m);
  CHECK_FALSE(patchPublicationNamed("Branch").has_value());
  CHECK_FALSE(failOnNamed("").has_value());
  CHECK_FALSE(reviewModeNamed("request_changes").has_value());
}
