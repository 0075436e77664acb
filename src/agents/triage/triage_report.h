// What builtin/triage reports: the TriageResult written as triage.json
// (agents/output.h), whose labels, duplicates and completeness the triage
// publisher renders, and the short Markdown comment for what it does not
// (missing fields). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agents/triage/duplicates.h"
#include "core/finding.h"
#include "core/result.h"

namespace lw::agents::triage {

struct FormCheck {
  std::string formName;                // the form the issue was written with
  std::vector<std::string> missing;    // its required fields left empty
  std::vector<std::string> available;  // names of every form, when the issue follows none
};

struct TriageFacts {
  std::vector<std::string> labels;  // existing first, then the chosen ones
  std::vector<RankedDuplicate> duplicates;
  std::optional<FormCheck> forms;  // nullopt: not checked (off, or no forms)
};

// The comment: missing fields with the form's name, or that the issue
// follows none of the forms; "" when there is nothing to ask for.
std::string triageComment(const TriageFacts& facts);

TriageResult toTriageResult(const TriageFacts& facts);

}  // namespace lw::agents::triage
