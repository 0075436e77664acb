// Which files are the configuration files config_file_rules.h reads, and
// reading one as YAML for its rules.
#include <limits>

#include "agents/security/file_rules/config_file_rules.h"
#include "agents/security/text.h"
#include "policy/yaml/yaml_document.h"

namespace lw::agents::security {

namespace {

bool yamlNamed(std::string_view name, std::string_view stem) {
  return name.size() > stem.size() && name.starts_with(stem) &&
         (name.substr(stem.size()) == ".yml" || name.substr(stem.size()) == ".yaml");
}

Error unreadable(std::string message, Location where) {
  Error e = makeError(ErrorCode::OutputInvalid, std::move(message));
  e.location = std::move(where);
  return e;
}

Result<YAML::Node> rootMapping(std::string_view content) {
  std::vector<Diagnostic> problems;
  // No size bound here: github.file's is the bound, and a file cut short by
  // it is reported before it is parsed (scan.cpp).
  std::optional<YAML::Node> root = parseYamlDocument(content, "", std::numeric_limits<std::size_t>::max(), problems);
  if (!root) return unreadable(problems.front().message, problems.front().location);
  if (root->IsMap()) return *root;
  return unreadable(std::string("is ") + (root->IsSequence() ? "a list" : "a single value") + ", not a mapping",
                    yamlLocation("", root->Mark()));
}

}  // namespace

bool isDependabotPath(std::string_view path) {
  std::string_view name = baseName(path);
  std::string_view dir = path.substr(0, path.size() - name.size());
  return yamlNamed(name, "dependabot") && (dir == ".github/" || dir.ends_with("/.github/"));
}

bool isPreCommitPath(std::string_view path) { return yamlNamed(baseName(path), ".pre-commit-config"); }

Result<std::vector<RuleHit>> configFileHits(std::string_view content, ConfigRules rules) {
  Result<YAML::Node> root = rootMapping(content);
  if (!root) return root.error();
  std::vector<RuleHit> out;
  try {
    rules(*root, out);
  } catch (const YAML::Exception& e) {
    return unreadable(e.msg, yamlLocation("", e.mark));  // a key that is not a scalar, and the like
  }
  return out;
}

}  // namespace lw::agents::security
