// The attack of issue #24 on examples/author-fix, end to end: an author step
// that runs the formatter, then writes src/.gitattributes (`*.c -diff`) and
// a src/.gitignore hiding both rule files, and appends 300 lines to a C file,
// against a contract of maxChangedLines: 40. Its change was accepted as
// "+0 -0, binary" and reviewed as a base85 blob. Now the patch is made with
// the checkout's attributes (docs/author-steps.md, "The patch"): the 300
// lines count and show as text, and the rule files are refused unless the
// contract lists them in gitRuleFiles (docs/taskpack.md, "Task contract").
#include <doctest/doctest.h>

#include "integration/patches/author_fix_fixture.h"
#include "support/tree_snapshot.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const std::pair<std::string, std::string> kAttack = {
    "run: [sh, .loopwright/fix-format.sh]",
    "run: [sh, -c, 'set -e; sh .loopwright/fix-format.sh; printf \"*.c -diff\\n\" > src/.gitattributes; "
    "printf \".git*\\n\" > src/.gitignore; i=0; while [ $i -lt 300 ]; do echo \"int pad$i = $i;\"; i=$((i+1)); "
    "done >> src/greet.c']"};

std::vector<std::string> strings(const json::value& v) {
  std::vector<std::string> out;
  for (const auto& s : v.as_array()) out.emplace_back(s.as_string());
  return out;
}

}  // namespace

TEST_CASE(
    "author attack on linux-bwrap: .gitattributes '*.c -diff' and a .gitignore hiding it do not pass 300 lines "
    "under maxChangedLines: 40" *
    doctest::test_suite("integration")) {
  if (!backendAvailable("linux-bwrap")) return;
  AuthorFix fx(exampleTaskpack("linux-bwrap", {kAttack}));
  const TreeSnapshot before = snapshotTree(fx.repo);
  auto r = fx.run();
  INFO(r.out << r.err);
  CHECK(r.status == 5);
  const json::object step = fx.step();
  CHECK(step.at("outcome") == "quarantined");
  CHECK(step.at("verification").at("violation") == "PATH_POLICY_VIOLATION");
  const json::object& change = step.at("change").as_object();
  CHECK(change.at("accepted") == false);
  CHECK(strings(change.at("paths")) ==
        std::vector<std::string>{"src/.gitattributes", "src/.gitignore", "src/greet.c", "src/util.c"});
  CHECK(change.at("binary") == false);
  CHECK(change.at("linesAdded") == 307);
  CHECK(change.at("refusedBecause") ==
        "changed src/.gitattributes, src/.gitignore: .gitattributes and .gitignore files the contract does not "
        "list in gitRuleFiles; changed 312 lines (307 added, 5 deleted), the contract allows 40");
  CHECK(r.out.find("4 files, +307 -5, patch") != std::string::npos);
  requirePublishedNowhere(fx.github);
  CHECK(treeDifferences(before, snapshotTree(fx.repo)).empty());
}

TEST_CASE(
    "author attack on linux-bwrap: rule files the contract lists are published, and the C file's lines as text, "
    "never as a binary patch" *
    doctest::test_suite("integration")) {
  if (!backendAvailable("linux-bwrap")) return;
  AuthorFix fx(exampleTaskpack(
      "linux-bwrap",
      {kAttack,
       {"maxChangedLines: 40", "maxChangedLines: 400\n          gitRuleFiles: [src/.gitattributes, src/.gitignore]"}}));
  auto r = fx.run();
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json::object step = fx.step();
  const json::object& change = step.at("change").as_object();
  CHECK(change.at("accepted") == true);
  CHECK(change.at("binary") == false);
  CHECK(change.at("linesAdded") == 307);
  const std::string patch = readFile(fx.s.root / "out/steps/format/fix-format/change.patch");
  CHECK(patch.find("GIT binary patch") == std::string::npos);
  CHECK(patch.find("\n+int pad299 = 299;\n") != std::string::npos);
  std::string published;
  for (const auto& request : fx.github.requests()) published += request.body;
  CHECK(published.find("GIT binary patch") == std::string::npos);
  CHECK(published.find("int pad299 = 299;") != std::string::npos);
  CHECK(published.find("*.c -diff") != std::string::npos);
}
