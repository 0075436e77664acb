// security/dependabot-cooldown and security/dependabot-execution over a
// Dependabot configuration: each entry of `updates:` (one package ecosystem
// in one directory) read for its `cooldown` and its
// `insecure-external-code-execution`.
#include <charconv>
#include <optional>
#include <string>

#include "agents/security/file_rules/config_file_rules.h"

namespace lw::agents::security {

namespace {

// zizmor's default minimum; Dependabot's own default cooldown is 3 days
// (docs.github.com, Dependabot options reference, `cooldown`).
constexpr long kMinimumCooldownDays = 7;
constexpr long kDependabotDefaultDays = 3;

int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

// The line of `key` in the mapping `m`, when it has that key.
std::optional<int> keyLine(const YAML::Node& m, std::string_view key) {
  for (auto it = m.begin(); it != m.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return lineOf(it->first);
  return std::nullopt;
}

std::optional<long> wholeNumber(const YAML::Node& n) {
  if (!n.IsScalar()) return std::nullopt;
  const std::string& s = n.Scalar();
  long value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

// "`pip` updates in `/`": which entry a finding is about.
std::string entryName(const YAML::Node& update) {
  auto scalar = [&](const char* key) {
    const YAML::Node v = update[key];
    return v && v.IsScalar() ? v.Scalar() : std::string("?");
  };
  return "`" + scalar("package-ecosystem") + "` updates in `" + scalar("directory") + "`";
}

void cooldownHit(const YAML::Node& update, int entryLine, std::vector<RuleHit>& out) {
  const std::string minimum = std::to_string(kMinimumCooldownDays);
  const YAML::Node cooldown = update["cooldown"];
  const YAML::Node days = cooldown && cooldown.IsMap() ? cooldown["default-days"] : YAML::Node();
  std::optional<int> cooldownLine = keyLine(update, "cooldown");
  if (!cooldownLine) {
    out.push_back({"security/dependabot-cooldown",
                   entryName(update) + " set no `cooldown`: Dependabot proposes a release " +
                       std::to_string(kDependabotDefaultDays) + " days after it is published, fewer than " + minimum +
                       ".",
                   {entryLine}});
    return;
  }
  if (!days || days.IsNull()) {
    out.push_back({"security/dependabot-cooldown",
                   entryName(update) + " set a `cooldown` without `default-days`, which is then " +
                       std::to_string(kDependabotDefaultDays) + ", fewer than " + minimum + ".",
                   {*cooldownLine, entryLine}});
    return;
  }
  std::optional<long> value = wholeNumber(days);
  if (!value || *value >= kMinimumCooldownDays) return;  // not a number: Dependabot refuses the file
  out.push_back(
      {"security/dependabot-cooldown",
       entryName(update) + " wait `default-days: " + std::to_string(*value) + "`, fewer than " + minimum + ".",
       {*keyLine(cooldown, "default-days"), *cooldownLine, entryLine}});
}

void executionHit(const YAML::Node& update, int entryLine, std::vector<RuleHit>& out) {
  const YAML::Node allow = update["insecure-external-code-execution"];
  if (!allow || !allow.IsScalar() || allow.Scalar() != "allow") return;
  out.push_back({"security/dependabot-execution",
                 entryName(update) + " set `insecure-external-code-execution: allow`.",
                 {*keyLine(update, "insecure-external-code-execution"), entryLine}});
}

}  // namespace

void dependabotHits(const YAML::Node& root, std::vector<RuleHit>& out) {
  const YAML::Node updates = root["updates"];
  if (!updates || !updates.IsSequence()) return;  // Dependabot refuses the file: no update runs
  for (const YAML::Node& update : updates) {
    if (!update.IsMap()) continue;
    cooldownHit(update, lineOf(update), out);
    executionHit(update, lineOf(update), out);
  }
}

}  // namespace lw::agents::security
