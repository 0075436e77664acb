#include "agents/security/workflow/action_catalogue.h"

#include <array>
#include <cctype>
#include <optional>
#include <string>

#include "agents/security/workflow/expression_code.h"
#include "core/hex.h"

namespace lw::agents::security {

namespace {

// An action (lower case, as usesAction compares), some of its inputs or
// outputs, and the page that documents them. A name starting with '*'
// matches by suffix.
struct ActionNames {
  std::string_view action;
  std::vector<std::string_view> names;
  std::string_view source;
};

// Inputs run as code: a script, a shell command, a jq/yq program, a
// template rendered with the event.
const std::vector<ActionNames> kCodeActions = {
    ActionNames{"actions/github-script", {"script"}, "https://github.com/actions/github-script#readme"},
    ActionNames{"mikefarah/yq", {"cmd"}, "https://github.com/mikefarah/yq#github-action"},
    ActionNames{"amadevus/pwsh-script", {"script"}, "https://github.com/Amadevus/pwsh-script#readme"},
    ActionNames{"tibdex/backport",
                {"body_template", "head_template", "labels_template", "title_template"},
                "https://github.com/tibdex/backport/blob/main/action.yml"},
    ActionNames{
        "jannekem/run-python-script-action", {"script"}, "https://github.com/jannekem/run-python-script-action#readme"},
    ActionNames{"cardinalby/js-eval-action", {"expression"}, "https://github.com/cardinalby/js-eval-action#readme"},
    ActionNames{"addnab/docker-run-action", {"options", "run"}, "https://github.com/addnab/docker-run-action#readme"},
    ActionNames{"8398a7/action-slack", {"custom_payload"}, "https://action-slack.netlify.app/usecase/02-custom"},
    ActionNames{"appleboy/ssh-action", {"script"}, "https://github.com/appleboy/ssh-action#input-variables"},
    ActionNames{"azure/cli", {"inlinescript"}, "https://github.com/Azure/cli#readme"},
    ActionNames{"azure/powershell", {"inlinescript"}, "https://github.com/Azure/powershell#readme"},
    ActionNames{"devorbitus/yq-action-output", {"cmd"}, "https://github.com/devorbitus/yq-action-output#readme"},
    ActionNames{"gautamkrishnar/blog-post-workflow",
                {"item_exec"},
                "https://github.com/gautamkrishnar/blog-post-workflow#options"},
    ActionNames{"imjohnbo/issue-bot",
                {"body", "linked-comments-previous-issue-text", "linked-comments-new-issue-text"},
                "https://github.com/imjohnbo/issue-bot#inputs"},
    ActionNames{"lucasbento/auto-close-issues",
                {"issue-close-message"},
                "https://github.com/lucasbento/auto-close-issues#readme"},
    ActionNames{"roots/issue-closer-action",
                {"issue-close-message", "pr-close-message"},
                "https://github.com/roots/issue-closer-action#readme"},
    ActionNames{"sergeysova/jq-action", {"cmd"}, "https://github.com/sergeysova/jq-action#readme"},
    ActionNames{"skitionek/notify-microsoft-teams",
                {"overwrite"},
                "https://github.com/skitionek/notify-microsoft-teams#readme"},
};

// Outputs that carry text an outsider chose.
const std::vector<ActionNames> kEventOutputs = {
    ActionNames{"tj-actions/changed-files", {"*_files"}, "https://github.com/tj-actions/changed-files#outputs-"},
    ActionNames{"dorny/paths-filter", {"*_files"}, "https://github.com/dorny/paths-filter#outputs"},
    ActionNames{"tj-actions/branch-names",
                {"current_branch", "head_ref_branch", "ref_branch", "base_ref_branch", "tag"},
                "https://github.com/tj-actions/branch-names#outputs"},
    ActionNames{"peter-evans/find-comment",
                {"comment-body", "comment-author"},
                "https://github.com/peter-evans/find-comment#outputs"},
    ActionNames{"xt0rted/pull-request-comment-branch",
                {"head_ref"},
                "https://github.com/xt0rted/pull-request-comment-branch#outputs"},
};

// How one input of a cache-aware action turns its cache on or off.
//   optIn: the cache is on when the input holds a true value (one of
//   `onValues` when given), off when it holds another; `onByDefault` when it
//   is absent. !optIn: the input turns the cache off (`lookup-only: true`).
//   Version bounds say for which major versions the entry applies at all
//   (0: any); `needs`: an input that must be given for it to apply.
struct CacheSwitch {
  std::string_view action;
  std::string_view input;  // empty: not configurable, always on
  bool optIn = true;
  bool onByDefault = false;
  std::string_view source;
  std::vector<std::string_view> onValues = {};
  int fromMajor = 0, beforeMajor = 0;
  std::string_view needs = {};
};

const std::vector<CacheSwitch> kCacheSwitches = {
    CacheSwitch{"actions/cache", "lookup-only", false, true, "https://github.com/actions/cache#inputs"},
    CacheSwitch{"actions/cache/restore", "", true, true, "https://github.com/actions/cache/tree/main/restore"},
    CacheSwitch{"actions/setup-java", "cache", true, false,
                "https://github.com/actions/setup-java#caching-packages-dependencies"},
    CacheSwitch{"actions/setup-go", "cache", true, true,
                "https://github.com/actions/setup-go#caching-dependency-files-and-build-outputs"},
    CacheSwitch{"actions/setup-node",
                "cache",
                true,
                false,
                "https://github.com/actions/setup-node#caching-global-packages-data",
                {"npm", "yarn", "pnpm"}},
    // v5 caches npm by default (package.json's packageManager / a lock file).
    CacheSwitch{"actions/setup-node",
                "package-manager-cache",
                true,
                true,
                "https://github.com/actions/setup-node#caching-global-packages-data",
                {},
                5},
    CacheSwitch{"actions/setup-python", "cache", true, false,
                "https://github.com/actions/setup-python#caching-packages-dependencies"},
    CacheSwitch{"actions/setup-dotnet", "cache", true, false,
                "https://github.com/actions/setup-dotnet#caching-nuget-packages"},
    CacheSwitch{"astral-sh/setup-uv",
                "enable-cache",
                true,
                false,
                "https://github.com/astral-sh/setup-uv#enable-caching",
                {"true"}},
    // Before v10, enable-cache defaulted to "auto" (on where a lock file exists).
    CacheSwitch{"astral-sh/setup-uv",
                "enable-cache",
                true,
                true,
                "https://github.com/astral-sh/setup-uv#enable-caching",
                {},
                0,
                10},
    CacheSwitch{"swatinem/rust-cache", "lookup-only", false, true, "https://github.com/Swatinem/rust-cache#inputs"},
    CacheSwitch{"ruby/setup-ruby", "bundler-cache", true, false,
                "https://github.com/ruby/setup-ruby#caching-bundle-install-automatically"},
    CacheSwitch{"pyo3/maturin-action", "sccache", true, false, "https://github.com/PyO3/maturin-action#inputs"},
    CacheSwitch{"mlugg/setup-zig", "use-cache", true, true, "https://github.com/mlugg/setup-zig#readme"},
    CacheSwitch{"oven-sh/setup-bun", "no-cache", false, true, "https://github.com/oven-sh/setup-bun#inputs"},
    CacheSwitch{"determinatesystems/magic-nix-cache-action", "use-gha-cache", true, true,
                "https://github.com/DeterminateSystems/magic-nix-cache-action#usage"},
    CacheSwitch{"graalvm/setup-graalvm", "cache", true, false, "https://github.com/graalvm/setup-graalvm#options"},
    CacheSwitch{"gradle/actions/setup-gradle", "cache-disabled", false, true,
                "https://github.com/gradle/actions/blob/main/docs/setup-gradle.md#disabling-caching"},
    // Caches the buildx binary it downloads when a `version:` is named.
    CacheSwitch{"docker/setup-buildx-action",
                "cache-binary",
                true,
                true,
                "https://github.com/docker/setup-buildx-action#inputs",
                {},
                0,
                0,
                "version"},
    CacheSwitch{"actions-rust-lang/setup-rust-toolchain", "cache", true, true,
                "https://github.com/actions-rust-lang/setup-rust-toolchain#inputs"},
    CacheSwitch{"mozilla-actions/sccache-action", "", true, true,
                "https://github.com/Mozilla-Actions/sccache-action#readme"},
    CacheSwitch{"nix-community/cache-nix-action", "", true, true,
                "https://github.com/nix-community/cache-nix-action#readme"},
    CacheSwitch{"jdx/mise-action", "cache", true, true, "https://github.com/jdx/mise-action#readme"},
    CacheSwitch{"ramsey/composer-install",
                "ignore-cache",
                false,
                true,
                "https://github.com/ramsey/composer-install#ignore-cache",
                {"yes", "true", "1"}},
    CacheSwitch{"awalsh128/cache-apt-pkgs-action", "", true, true,
                "https://github.com/awalsh128/cache-apt-pkgs-action#readme"},
};

bool matchesName(std::string_view name, std::string_view pattern) {
  if (pattern.starts_with("*")) return name.ends_with(pattern.substr(1));
  return name == pattern;
}

bool isFalse(std::string_view v) {
  std::string l = lowerCase(trim(v));
  return l.empty() || l == "false" || l == "no" || l == "0" || l == "off";
}

bool isOneOf(std::string_view v, const std::vector<std::string_view>& values) {
  std::string l = lowerCase(trim(v));
  for (std::string_view x : values)
    if (l == x) return true;
  return false;
}

// What a cache switch's expression is on a tag push, for the guards
// release workflows write (`!startsWith(github.ref, 'refs/tags/')`,
// `github.event_name == 'push' && github.ref_type == 'tag'`, negated or
// not); nullopt for any other expression.
std::optional<bool> onTagPush(std::string_view expression) {
  std::string e = expressionCode(expression, true);
  bool negated = false;
  while (e.starts_with("!")) {
    negated = !negated;
    e.erase(0, 1);
  }
  if (e.starts_with("(") && e.ends_with(")")) e = e.substr(1, e.size() - 2);
  static constexpr std::array kTagGuards = {"startswith(github.ref,'refs/tags/')", "github.ref_type=='tag'",
                                            "github.event_name=='push'&&github.ref_type=='tag'",
                                            "github.ref_type=='tag'&&github.event_name=='push'"};
  for (std::string_view guard : kTagGuards)
    if (e == guard) return !negated;
  if (e == "true" || e == "false") return (e == "true") != negated;
  return std::nullopt;
}

// The value turns the switch's cache on. An expression may: counted on
// (the release it builds is where it matters), unless the workflow builds
// only tags and the expression is a tag guard that is off for them.
bool valueTurnsOn(const CacheSwitch& c, std::string_view value, bool tagBuildsOnly) {
  if (value.find("${{") != std::string_view::npos) {
    std::optional<bool> onTag = tagBuildsOnly ? onTagPush(value) : std::nullopt;
    return !onTag || *onTag == c.optIn;
  }
  if (c.optIn) return c.onValues.size() == 0 ? !isFalse(value) : isOneOf(value, c.onValues);
  return c.onValues.size() == 0 ? isFalse(value) : !isOneOf(value, c.onValues);
}

bool versionApplies(const CacheSwitch& c, int major) {
  if (major < 0) return true;  // unknown (a bare SHA): as the newest and the oldest
  return (c.fromMajor == 0 || major >= c.fromMajor) && (c.beforeMajor == 0 || major < c.beforeMajor);
}

int leadingNumber(std::string_view s) {
  if (s.starts_with("v") || s.starts_with("V")) s.remove_prefix(1);
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) == 0) return -1;
  int n = 0;
  for (std::size_t i = 0; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0 && n < 100000; ++i)
    n = n * 10 + (s[i] - '0');
  return n;
}

}  // namespace

std::vector<const Located*> codeExecutingInputs(const StepModel& step) {
  std::vector<const Located*> out;
  for (const ActionNames& a : kCodeActions) {
    if (!usesAction(step, a.action)) continue;
    for (const auto& [key, value] : step.with)
      for (std::string_view input : a.names)
        if (lowerCase(key) == input) out.push_back(&value);
  }
  return out;
}

bool outputCarriesEventText(const StepModel& step, std::string_view name) {
  for (const ActionNames& a : kEventOutputs)
    if (usesAction(step, a.action))
      for (std::string_view pattern : a.names)
        if (matchesName(name, pattern)) return true;
  return false;
}

int actionMajorVersion(const StepModel& step, const FileLines& lines) {
  std::string_view uses = step.uses.text;
  std::size_t at = uses.find('@');
  if (at == std::string_view::npos) return -1;
  std::string_view ref = uses.substr(at + 1);
  bool sha = ref.size() >= 7 && isHex(ref);
  int fromRef = sha ? -1 : leadingNumber(ref);
  if (fromRef >= 0 || step.uses.line < 1 || static_cast<std::size_t>(step.uses.line) > lines.size()) return fromRef;
  std::string_view line = lines[static_cast<std::size_t>(step.uses.line - 1)];
  std::size_t hash = line.find('#', line.find(ref));
  return hash == std::string_view::npos ? -1 : leadingNumber(trim(line.substr(hash + 1)));
}

const Located* cacheTurnedOn(const StepModel& step, const FileLines& lines, bool tagBuildsOnly) {
  int major = actionMajorVersion(step, lines);
  for (const CacheSwitch& c : kCacheSwitches) {
    if (!usesAction(step, c.action) || !versionApplies(c, major)) continue;
    if (!c.needs.empty() && step.withValue(c.needs) == nullptr) continue;
    const Located* value = c.input.empty() ? nullptr : step.withValue(c.input);
    if (value == nullptr && c.onByDefault) return &step.uses;
    if (value != nullptr && valueTurnsOn(c, value->text, tagBuildsOnly)) return value;
  }
  return nullptr;
}

}  // namespace lw::agents::security
