#include "agents/triage/triage_report.h"

#include <boost/json.hpp>

#include "core/file_io.h"

namespace lw::agents::triage {

namespace json = boost::json;

namespace {

std::string joined(const std::vector<std::string>& items, const std::string& quote) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quote + items[i] + quote;
  return out;
}

// At most `max` bytes, never ending inside a character (the schema's
// bounds; JSON must stay valid UTF-8).
std::string utf8Prefix(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut);
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

json::object triageJson(const TriageResult& result) {
  json::array labels, duplicates;
  for (std::size_t i = 0; i < result.labels.size() && i < 20; ++i)
    if (!result.labels[i].empty() && result.labels[i].size() <= 50) labels.emplace_back(result.labels[i]);
  for (std::size_t i = 0; i < result.duplicates.size() && i < 20; ++i) {
    const auto& d = result.duplicates[i];
    const std::string reason = utf8Prefix(d.reason, 1000);
    duplicates.push_back(json::object{{"number", d.number}, {"reason", reason.empty() ? "similar" : reason}});
  }
  json::object o{{"labels", std::move(labels)}, {"duplicates", std::move(duplicates)}};
  if (result.complete) o["complete"] = *result.complete;
  if (result.reproducible) o["reproducible"] = *result.reproducible;
  if (!result.comment.empty()) o["comment"] = utf8Prefix(result.comment, 65536);
  return o;
}

Status writeTriage(const std::filesystem::path& outDir, const TriageResult& result) {
  return writeFileAtomic((outDir / "triage.json").string(), json::serialize(triageJson(result)) + "\n", false);
}

}  // namespace lw::agents::triage
