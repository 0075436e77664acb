// The eval summary on GitHub's own grammar: what a case's name or a step's
// finding says is parsed with cmark-gfm as GitHub renders the step summary,
// and must come out as text: no image, link, HTML, mention, heading or
// extra table cell (github/markdown/inert_check.h).
#include <string>
#include <vector>

#include <cmark-gfm.h>
#include <doctest/doctest.h>

#include "eval/report.h"
#include "github/markdown/inert_check.h"
#include "github/markdown/markdown_tree.h"

using namespace lw;
using namespace lw::eval;
namespace md = lw::github::md;

namespace {

const std::string kHostile =
    "![x](https://evil.example/p.png) [click](https://evil.example) <img src=x onerror=alert(1)> "
    "<details>hidden</details> @octocat | injected cell\n# Heading\nlast-word";

EvalCase hostileCase() {
  EvalCase c;
  c.name = "case | <b>bold</b> @octocat [l](https://evil.example)";
  FindingPattern p;
  p.path = "a.py";
  p.lines = {3, 3};
  c.expect = {p};
  return c;
}

CaseRun hostileRun() {
  CaseRun r;
  r.caseName = hostileCase().name;
  r.diff = {{"a.py", {{1, 10}}}};
  Finding f;
  f.step = "review";
  f.path = "a.py";
  f.line = 9;
  f.ruleId = "review/x`y|<z>";
  f.message = kHostile;
  r.findings = {f};
  r.steps = {{"review", "m", "failed: " + kHostile, false, 10, 5, 5}};
  return r;
}

std::string typeOf(cmark_node* n) {
  const char* t = cmark_node_get_type_string(n);
  return t == nullptr ? "" : t;
}

}  // namespace

TEST_CASE("eval markdown: a hostile case name and finding message render inert under cmark-gfm") {
  const std::string summary =
      renderMarkdown(buildReport({hostileCase()}, {hostileRun()}, {{"m", TokenPrices{1.0, 1.0}}}, 1));
  CAPTURE(summary);
  CHECK(github::inertViolations(summary, github::LinkScope{"github.com", "octo", "eval"}).empty());
  md::Tree tree = md::Tree::parse(summary);
  int headings = 0;
  std::vector<std::vector<std::string>> caseRows;  // the cells of the cases' table
  int tables = 0;
  for (cmark_node* n : md::nodesUnder(tree.root())) {
    headings += cmark_node_get_type(n) == CMARK_NODE_HEADING;
    if (typeOf(n) == "table") ++tables;
    if (typeOf(n) != "table_row" || tables != 2) continue;
    caseRows.emplace_back();
    for (cmark_node* cell = cmark_node_first_child(n); cell; cell = cmark_node_next(cell))
      caseRows.back().push_back(md::plainText(cell));
  }
  CHECK(headings == 2);  // the summary's own: the table's and the cases'
  REQUIRE(tables == 2);
  // The unexpected finding, the step that failed and the missed line, each
  // one row of six cells whose text is all of what was written.
  REQUIRE(caseRows.size() == 3);
  for (const auto& row : caseRows) {
    CHECK(row.size() == 6);
    CHECK(row[0].find("case | _b>bold_/b> @") != std::string::npos);
  }
  const std::string& message = caseRows[1][5];
  CHECK(caseRows[1][4] == "unexpected");
  CHECK(message.find("injected cell") != std::string::npos);
  CHECK(message.find("# Heading last-word") != std::string::npos);
  CHECK(message.find("evil.example") != std::string::npos);  // shown, not linked
  CHECK(caseRows[2][4] == "missed");
}
