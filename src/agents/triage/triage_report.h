// What builtin/triage reports: triage.json (schemas/triage.schema.json),
// whose labels, duplicates and completeness the triage publisher renders,
// and the short Markdown comment for what it does not (missing fields).
// Pure but for writing the file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

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

// triage.json as the schema wants it (at most 20 labels and duplicates).
boost::json::object triageJson(const TriageResult& result);

Status writeTriage(const std::filesystem::path& outDir, const TriageResult& result);

}  // namespace lw::agents::triage
