// security/use-trusted-publishing: a long-lived registry token where the
// registry accepts the workflow's own OIDC identity (trusted publishing on
// PyPI, npm, crates.io, RubyGems, NuGet). After zizmor's
// use-trusted-publishing audit: its publishing actions and commands.
#include <algorithm>
#include <array>
#include <string>

#include "agents/security/workflow/shell_commands.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

constexpr std::string_view kRule = "security/use-trusted-publishing";

bool oneOf(std::string_view value, std::initializer_list<std::string_view> known) {
  return std::find(known.begin(), known.end(), trim(value)) != known.end();
}

// An index input left out means the action's default, the public registry.
bool publicIndex(const StepModel& s, std::initializer_list<std::string_view> keys,
                 std::initializer_list<std::string_view> indices) {
  for (std::string_view key : keys)
    if (const Located* v = s.withValue(key); v != nullptr && !oneOf(v->text, indices)) return false;
  return true;
}

// The input that passes a token to a publishing action, or nullptr.
const Located* manualCredential(const StepModel& s) {
  if (usesAction(s, "pypa/gh-action-pypi-publish")) {
    const Located* password = s.withValue("password");
    bool pypi = publicIndex(s, {"repository-url", "repository_url"},
                            {"https://upload.pypi.org/legacy/", "https://test.pypi.org/legacy/"});
    return pypi ? password : nullptr;
  }
  if (usesAction(s, "rubygems/release-gem")) {
    const Located* setup = s.withValue("setup-trusted-publisher");
    return setup != nullptr && lowerCase(trim(setup->text)) == "false" ? setup : nullptr;
  }
  if (usesAction(s, "rubygems/configure-rubygems-credentials")) {
    bool rubygems = publicIndex(s, {"gem-server"}, {"https://rubygems.org"});
    return rubygems ? s.withValue("api-token") : nullptr;
  }
  if (usesAction(s, "actions/setup-node")) {
    const Located* alwaysAuth = s.withValue("always-auth");
    bool npmjs = publicIndex(s, {"registry-url"}, {"https://registry.npmjs.org", "https://registry.npmjs.org/"});
    return npmjs && alwaysAuth != nullptr && lowerCase(trim(alwaysAuth->text)) == "true" ? alwaysAuth : nullptr;
  }
  return nullptr;
}

bool has(const std::vector<std::string>& words, std::string_view w) {
  return std::find(words.begin() + 1, words.end(), w) != words.end();
}
bool hasPrefix(const std::vector<std::string>& words, std::string_view p) {
  return std::any_of(words.begin() + 1, words.end(), [&](const std::string& w) { return w.starts_with(p); });
}

// `cargo publish`, `twine upload`, `npm publish`, `gem push`… without a dry run.
bool publishes(const std::vector<std::string>& c) {
  const std::string& p = c.front();
  bool dry = has(c, "--dry-run");
  if (p == "cargo") return has(c, "publish") && !dry && !has(c, "-n");
  if (p == "uv") return (has(c, "publish") && !dry) || (has(c, "run") && has(c, "twine") && has(c, "upload"));
  if (p == "uvx") return hasPrefix(c, "twine") && has(c, "upload");
  if (p == "hatch" || p == "pdm") return has(c, "publish");
  if (p == "poetry" || p == "npm" || p == "pnpm" || p == "bun") return has(c, "publish") && !dry;
  if (p == "twine") return has(c, "upload");
  if (p == "pipx") return has(c, "run") && hasPrefix(c, "twine") && has(c, "upload");
  if (p.starts_with("python")) return has(c, "-m") && has(c, "twine") && has(c, "upload");
  if (p == "gem") return has(c, "push");
  if (p == "bundle") return has(c, "exec") && has(c, "gem") && has(c, "push");
  if (p == "yarn") return has(c, "publish") && !dry && !has(c, "-n");
  if (p == "bunx") return hasPrefix(c, "npm") && has(c, "publish") && !dry;
  if (p == "nuget" || p == "nuget.exe") return has(c, "push");
  if (p == "dotnet") return has(c, "nuget") && has(c, "push");
  return false;
}

bool grantsIdToken(const Located& permissions, const LocatedMap& scopes) {
  if (permissions.text == "write-all") return true;
  return std::any_of(scopes.begin(), scopes.end(),
                     [](const auto& scope) { return scope.first == "id-token" && scope.second.text == "write"; });
}

// A job can ask for an OIDC token when it (or, without permissions of its
// own, the workflow) grants `id-token: write`.
bool canUseOidc(const WorkflowModel& w, const JobModel& j) {
  return j.permissions.present() ? grantsIdToken(j.permissions, j.permissionScopes)
                                 : grantsIdToken(w.permissions, w.permissionScopes);
}

void publishCommandHits(const StepModel& s, const FileLines& lines, std::vector<RuleHit>& out) {
  std::vector<std::string_view> script = splitLines(s.run.text);
  std::vector<int> at = valueLineNumbers(lines, s.run.line, script);
  for (const ShellCommand& c : shellCommands(script))
    if (publishes(c.words))
      out.push_back({kRule,
                     "`" + c.words.front() +
                         "` publishes with a registry token: this job cannot ask for an OIDC "
                         "token (no `id-token: write`).",
                     {at[c.line]}});
}

}  // namespace

void trustedPublishingHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs) {
    // Commands are checked in workflows only: an action cannot see the
    // permissions of the jobs that will run it.
    bool commands = !w.isAction && !canUseOidc(w, j);
    for (const StepModel& s : j.steps) {
      if (neverRuns(s)) continue;
      if (const Located* credential = manualCredential(s))
        out.push_back(
            {kRule, "This publishing step is given a long-lived credential.", {s.uses.line, credential->line}});
      if (commands && s.run.present()) publishCommandHits(s, lines, out);
    }
  }
}

}  // namespace lw::agents::security
