#include <doctest/doctest.h>

#include "agents/triage/issue_forms.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::agents::triage;

namespace {

const char* kBugForm = R"(name: Bug report
description: Something does not work
labels: [bug]
body:
  - type: markdown
    attributes:
      value: Thanks for taking the time!
  - type: input
    id: version
    attributes:
      label: Version
    validations:
      required: true
  - type: textarea
    id: steps
    attributes:
      label: Steps to reproduce
    validations:
      required: true
  - type: textarea
    id: extra
    attributes:
      label: Anything else?
)";

const char* kFeatureForm = R"(name: Feature request
body:
  - type: textarea
    attributes:
      label: What would you like?
    validations:
      required: true
)";

}  // namespace

TEST_CASE("triage forms: required fields and their labels from the form's YAML") {
  auto form = parseIssueForm(kBugForm, ".github/ISSUE_TEMPLATE/bug.yml");
  REQUIRE(form.ok());
  CHECK(form->name == "Bug report");
  CHECK(form->fieldLabels == std::vector<std::string>{"Version", "Steps to reproduce", "Anything else?"});
  CHECK(form->requiredLabels == std::vector<std::string>{"Version", "Steps to reproduce"});
  auto bad = parseIssueForm("name: [unclosed", "x.yml");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::OutputInvalid);
  CHECK(bad.error().subject == "x.yml");
  CHECK_FALSE(parseIssueForm("name: Not a form\n", "y.yml").ok());
}

TEST_CASE("triage forms: a required field missing, answered _No response_, or present") {
  auto form = parseIssueForm(kBugForm, "bug.yml");
  REQUIRE(form.ok());
  SUBCASE("all present") {
    CHECK(
        missingFields(
            "### Version\n\n1.4.0\n\n### Steps to reproduce\n\nrun it\n\n### Anything else?\n\n_No response_\n", *form)
            .empty());
  }
  SUBCASE("_No response_ and absent") {
    CHECK(missingFields("### Version\n\n_No response_\n\n### Anything else?\n\nno\n", *form) ==
          std::vector<std::string>{"Version", "Steps to reproduce"});
  }
  SUBCASE("empty section, CRLF line ends") {
    CHECK(missingFields("### Version\r\n\r\n1.4\r\n### Steps to reproduce\r\n\r\n   \r\n", *form) ==
          std::vector<std::string>{"Steps to reproduce"});
  }
}

TEST_CASE("triage forms: the form an issue was written with, read from the workspace") {
  test::TempDir ws;
  ws.write(".github/ISSUE_TEMPLATE/bug.yml", kBugForm);
  ws.write(".github/ISSUE_TEMPLATE/feature.yaml", kFeatureForm);
  ws.write(".github/ISSUE_TEMPLATE/config.yml", "blank_issues_enabled: false\n");
  ws.write(".github/ISSUE_TEMPLATE/broken.yml", "body: [unclosed\n");
  ws.write(".github/ISSUE_TEMPLATE/old.md", "---\nname: old\n---\n");
  std::vector<std::string> skipped;
  auto forms = loadIssueForms(ws.root, skipped);
  REQUIRE(forms.size() == 2);
  CHECK(forms[0].file == ".github/ISSUE_TEMPLATE/bug.yml");
  CHECK(forms[1].name == "Feature request");
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0].rfind(".github/ISSUE_TEMPLATE/broken.yml: ", 0) == 0);

  const IssueForm* f = formOf("### What would you like?\n\nSARIF\n", forms);
  REQUIRE(f);
  CHECK(f->name == "Feature request");
  CHECK(formOf("Just some text, no form.", forms) == nullptr);
  test::TempDir empty;
  CHECK(loadIssueForms(empty.root, skipped).empty());
}
