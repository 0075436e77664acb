// The rules for repository configuration files that are not workflows but
// decide what code reaches the repository or the developers' machines:
// Dependabot's (.github/dependabot.yml) and pre-commit's
// (.pre-commit-config.yaml). Each reader returns its rules' hits, or the
// parser's error when the file is not YAML the rules can read (reported as
// security/unparsed-workflow by the scanner).
#pragma once

#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "agents/security/rules.h"
#include "core/result.h"

namespace lw::agents::security {

// `dependabot.yml` or `.yaml` in a `.github/` folder (the repository's, or
// a nested repository's as zizmor reads them).
bool isDependabotPath(std::string_view path);
// `.pre-commit-config.yaml` or `.yml`, in any folder (`pre-commit -c`).
bool isPreCommitPath(std::string_view path);

// The rules of one kind of configuration file over its root mapping.
using ConfigRules = void (*)(const YAML::Node& root, std::vector<RuleHit>& out);

// `rules`' hits on the file, or the parser's error with its line: not YAML,
// YAML whose top level is not a mapping, a key that is not a scalar.
Result<std::vector<RuleHit>> configFileHits(std::string_view content, ConfigRules rules);

// dependabot_rules.cpp: security/dependabot-cooldown and
// security/dependabot-execution, per entry of `updates:`.
void dependabotHits(const YAML::Node& root, std::vector<RuleHit>& out);

// precommit_rules.cpp: security/insecure-url-scheme and
// security/archived-action, per entry of `repos:`.
void preCommitHits(const YAML::Node& root, std::vector<RuleHit>& out);

}  // namespace lw::agents::security
