#include <doctest/doctest.h>

#include "agents/triage/duplicates.h"
#include "agents/triage/text_terms.h"

using namespace lw::agents::triage;

namespace {

IssueText issue(int number, std::string title, std::string body) {
  return {number, std::move(title), std::move(body), "open"};
}

const IssueText kNew = issue(40, "Crash when parsing an empty YAML taskpack",
                             "Running `loopwright validate` on an empty taskpack.yaml crashes with a segfault in "
                             "the YAML parser. Expected a TASKPACK_INVALID error instead of the crash.");

std::vector<IssueText> candidates() {
  return {
      issue(12, "Docs: the README's install section is outdated",
            "The install section mentions an old Debian release."),
      issue(7, "Segfault on empty taskpack.yaml",
            "validate crashes (segfault) when taskpack.yaml is empty; the parser "
            "should report TASKPACK_INVALID."),
      issue(40, "Crash when parsing an empty YAML taskpack", "the issue itself, as search returns it"),
      issue(21, "Add a --json flag to explain", "A machine-readable explain output would help our tooling."),
      issue(7, "Segfault on empty taskpack.yaml", "the same candidate again from the second query"),
      issue(30, "YAML anchors are not supported in taskpacks",
            "Anchors and aliases in the taskpack are rejected by the parser."),
  };
}

}  // namespace

TEST_CASE("triage ranking: stems join inflections, keep short words and -ss words") {
  CHECK(stem("crashes") == "crash");
  CHECK(stem("Crashed") == "crash");
  CHECK(stem("crashing") == "crash");
  CHECK(stem("files") == "file");
  CHECK(stem("queries") == "query");
  CHECK(stem("process") == "process");
  CHECK(stem("docs") == "doc");
  CHECK(stem("bus") == "bus");
}

TEST_CASE("triage ranking: content terms drop stop words, digits and one-letter words") {
  CHECK(contentTerms("The parser crashes on a 404 page, please help") ==
        std::vector<std::string>{"parser", "crash", "page", "help"});
}

TEST_CASE("triage ranking: the search query holds the issue's most frequent distinctive stems, bounded") {
  const std::string q = searchQuery(kNew, 3);
  CHECK(q == "taskpack crash yaml");
  CHECK(searchQuery(kNew, 50, 20).size() <= 20);
  CHECK(searchQuery(issue(1, "", "the of and"), 5).empty());
}

TEST_CASE("triage ranking: a true duplicate ranks first above the threshold, unrelated issues below it") {
  auto all = rankDuplicates(kNew, candidates(), 0.0, 10);
  REQUIRE(all.size() == 4);  // 40 (itself) and the repeated 7 are excluded
  CHECK(all[0].number == 7);
  CHECK(all[0].score >= 0.5);
  for (const auto& d : all)
    if (d.number == 12 || d.number == 21) CHECK(d.score < 0.2);
  auto kept = rankDuplicates(kNew, candidates(), 0.5, 3);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].number == 7);
  CHECK(duplicateReason(kept[0]).rfind("similar title and description (score 0.", 0) == 0);
  CHECK(duplicateReason(kept[0]).find("): Segfault on empty taskpack.yaml") != std::string::npos);
}

TEST_CASE("triage ranking: at most max, none from nothing") {
  CHECK(rankDuplicates(kNew, candidates(), 0.0, 2).size() == 2);
  CHECK(rankDuplicates(kNew, {}, 0.0, 3).empty());
  CHECK(rankDuplicates(issue(1, "", ""), candidates(), 0.0, 3).empty() == false);
  CHECK(rankDuplicates(issue(1, "", ""), candidates(), 0.01, 3).empty());
}

TEST_CASE("triage ranking: cosine of identical vectors is 1, of disjoint ones 0") {
  TfIdf model({{"a1", "b1"}, {"c1"}});
  CHECK(cosine(model.vector({"a1", "b1"}), model.vector({"a1", "b1"})) == doctest::Approx(1.0));
  CHECK(cosine(model.vector({"a1"}), model.vector({"c1"})) == 0.0);
  CHECK(cosine({}, model.vector({"a1"})) == 0.0);
}
