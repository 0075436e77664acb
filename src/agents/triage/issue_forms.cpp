#include "agents/triage/issue_forms.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace lw::agents::triage {

namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool truthy(const YAML::Node& n) {
  if (!n || !n.IsScalar()) return false;
  const std::string v = n.Scalar();
  return v == "true" || v == "True" || v == "TRUE" || v == "yes";
}

std::optional<std::string> sectionText(const std::vector<std::pair<std::string, std::string>>& sections,
                                       const std::string& label) {
  for (const auto& [heading, text] : sections)
    if (heading == trimmed(label)) return text;
  return std::nullopt;
}

}  // namespace

Result<IssueForm> parseIssueForm(const std::string& yamlText, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yamlText);
  } catch (const YAML::Exception& e) {
    return makeError(ErrorCode::OutputInvalid, "issue form " + file + " is not YAML: " + e.msg,
                     "GitHub ignores it too; fix its syntax", file);
  }
  if (!root.IsMap() || !root["body"] || !root["body"].IsSequence())
    return makeError(ErrorCode::OutputInvalid, "issue form " + file + " has no body: list", "", file);
  IssueForm form;
  form.file = file;
  if (root["name"] && root["name"].IsScalar()) form.name = root["name"].Scalar();
  for (const YAML::Node& field : root["body"]) {
    if (!field.IsMap()) continue;
    const YAML::Node attributes = field["attributes"];
    if (!attributes || !attributes.IsMap() || !attributes["label"] || !attributes["label"].IsScalar()) continue;
    const std::string label = trimmed(attributes["label"].Scalar());
    if (label.empty()) continue;
    form.fieldLabels.push_back(label);
    const YAML::Node validations = field["validations"];
    if (validations && validations.IsMap() && truthy(validations["required"])) form.requiredLabels.push_back(label);
  }
  return form;
}

std::vector<IssueForm> loadIssueForms(const fs::path& workspace, std::vector<std::string>& skipped) {
  std::vector<IssueForm> forms;
  const fs::path dir = workspace / ".github" / "ISSUE_TEMPLATE";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return forms;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    const bool yaml = p.extension() == ".yml" || p.extension() == ".yaml";
    if (yaml && p.stem() != "config" && entry.is_regular_file(ec)) files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    const std::string rel = (fs::path(".github") / "ISSUE_TEMPLATE" / p.filename()).string();
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto form =
        in ? parseIssueForm(text.str(), rel) : Result<IssueForm>(makeError(ErrorCode::IoError, "unreadable", "", rel));
    if (form)
      forms.push_back(std::move(form).value());
    else
      skipped.push_back(rel + ": " + form.error().message);
  }
  return forms;
}

std::vector<std::pair<std::string, std::string>> formSections(const std::string& body) {
  std::vector<std::pair<std::string, std::string>> sections;
  std::istringstream in(body);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("### ", 0) == 0) {
      sections.push_back({trimmed(line.substr(4)), ""});
    } else if (!sections.empty()) {
      sections.back().second += line + "\n";
    }
  }
  for (auto& s : sections) s.second = trimmed(s.second);
  return sections;
}

const IssueForm* formOf(const std::string& body, const std::vector<IssueForm>& forms) {
  const auto sections = formSections(body);
  const IssueForm* best = nullptr;
  std::size_t bestCount = 0;
  for (const IssueForm& f : forms) {
    std::size_t n = 0;
    for (const std::string& label : f.fieldLabels) n += sectionText(sections, label).has_value();
    if (n > bestCount) {
      best = &f;
      bestCount = n;
    }
  }
  return best;
}

std::vector<std::string> missingFields(const std::string& body, const IssueForm& form) {
  const auto sections = formSections(body);
  std::vector<std::string> missing;
  for (const std::string& label : form.requiredLabels) {
    const std::optional<std::string> text = sectionText(sections, label);
    if (!text || text->empty() || *text == "_No response_") missing.push_back(label);
  }
  return missing;
}

}  // namespace lw::agents::triage
