#include "agents/triage/triage_report.h"

namespace lw::agents::triage {

namespace {

std::string joined(const std::vector<std::string>& items, const std::string& quote) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quote + items[i] + quote;
  return out;
}

}  // namespace

std::string triageComment(const TriageFacts& facts) {
  if (!facts.forms) return {};
  const FormCheck& f = *facts.forms;
  if (f.formName.empty() && !f.available.empty()) {
    return "This issue does not follow the repository's issue forms (" + joined(f.available, "*") +
           "). Filling one in helps maintainers find what they need.\n";
  }
  if (f.missing.empty()) return {};
  return "**Missing information** (required by the *" + f.formName + "* form): " + joined(f.missing, "**") +
         ". Please edit the issue to add it.\n";
}

TriageResult toTriageResult(const TriageFacts& facts) {
  TriageResult r;
  r.labels = facts.labels;
  for (const RankedDuplicate& d : facts.duplicates) r.duplicates.push_back({d.number, duplicateReason(d)});
  if (facts.forms && !facts.forms->formName.empty()) r.complete = facts.forms->missing.empty();
  r.comment = triageComment(facts);
  return r;
}

}  // namespace lw::agents::triage
