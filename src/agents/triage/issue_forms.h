// The repository's issue forms (.github/ISSUE_TEMPLATE/*.yml) and which of
// their required fields an issue left empty. GitHub renders a form's answers
// as "### <label>" sections and an empty answer as "_No response_". Pure
// but for reading the form files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::agents::triage {

struct IssueForm {
  std::string file;                         // ".github/ISSUE_TEMPLATE/bug.yml"
  std::string name;                         // the form's `name:`
  std::vector<std::string> fieldLabels;     // every field with a label, in order
  std::vector<std::string> requiredLabels;  // those with validations.required: true
};

// One form from its YAML text; fails with OUTPUT_INVALID naming `file` when
// it is not YAML or has no `body:` list.
Result<IssueForm> parseIssueForm(const std::string& yamlText, const std::string& file);

// Every *.yml / *.yaml form under <workspace>/.github/ISSUE_TEMPLATE, sorted
// by file name; unreadable or malformed ones are skipped and named in
// `skipped` ("config.yml" is the template chooser, not a form).
std::vector<IssueForm> loadIssueForms(const std::filesystem::path& workspace, std::vector<std::string>& skipped);

// The answers of an issue body: "### <label>" heading -> the text under it,
// trimmed.
std::vector<std::pair<std::string, std::string>> formSections(const std::string& body);

// The form the body was written with: the one with most field headings in
// it; nullptr when no heading of any form is there.
const IssueForm* formOf(const std::string& body, const std::vector<IssueForm>& forms);

// Required fields of `form` that are absent, empty or "_No response_".
std::vector<std::string> missingFields(const std::string& body, const IssueForm& form);

}  // namespace lw::agents::triage
