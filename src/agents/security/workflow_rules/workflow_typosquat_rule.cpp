// security/typosquat-uses: a `uses:` whose owner/repo is one slip away from
// a widely used action but belongs to another owner: `action/checkout`,
// `actiions/checkout`, `dokcer/login-action`, `acti0ns/checkout`. Offline,
// the rule cannot tell whether the look-alike repository exists, hence its
// low confidence.
#include <algorithm>
#include <array>
#include <string>

#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

// Widely used actions (owner/repo, lower case): GitHub's own, the registry
// and cloud logins, the toolchain setups, and the agent actions. Chosen by
// hand from what public workflows use most; a look-alike of one of these is
// what a typosquatter registers.
constexpr std::array kPopular = {
    "actions/checkout",
    "actions/setup-node",
    "actions/setup-python",
    "actions/setup-java",
    "actions/setup-go",
    "actions/setup-dotnet",
    "actions/cache",
    "actions/upload-artifact",
    "actions/download-artifact",
    "actions/github-script",
    "actions/create-github-app-token",
    "actions/labeler",
    "actions/stale",
    "actions/configure-pages",
    "actions/deploy-pages",
    "actions/upload-pages-artifact",
    "actions/dependency-review-action",
    "actions/attest-build-provenance",
    "github/codeql-action",
    "docker/login-action",
    "docker/build-push-action",
    "docker/setup-buildx-action",
    "docker/setup-qemu-action",
    "docker/metadata-action",
    "aws-actions/configure-aws-credentials",
    "aws-actions/amazon-ecr-login",
    "azure/login",
    "google-github-actions/auth",
    "google-github-actions/setup-gcloud",
    "google-github-actions/run-gemini-cli",
    "hashicorp/setup-terraform",
    "pypa/gh-action-pypi-publish",
    "softprops/action-gh-release",
    "peter-evans/create-pull-request",
    "codecov/codecov-action",
    "dtolnay/rust-toolchain",
    "swatinem/rust-cache",
    "astral-sh/setup-uv",
    "pnpm/action-setup",
    "ruby/setup-ruby",
    "golangci/golangci-lint-action",
    "goreleaser/goreleaser-action",
    "peaceiris/actions-gh-pages",
    "jamesives/github-pages-deploy-action",
    "tj-actions/changed-files",
    "dorny/paths-filter",
    "stefanzweifel/git-auto-commit-action",
    "shivammathur/setup-php",
    "gradle/actions",
    "slackapi/slack-github-action",
    "sigstore/cosign-installer",
    "aquasecurity/trivy-action",
    "ossf/scorecard-action",
    "step-security/harden-runner",
    "release-drafter/release-drafter",
    "oven-sh/setup-bun",
    "denoland/setup-deno",
    "anthropics/claude-code-action",
    "openai/codex-action",
};

// One insertion, deletion, substitution or swap of neighbours turns `a` into `b`.
bool oneEditApart(std::string_view a, std::string_view b) {
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > 1 || a == b) return false;
  std::size_t i = 0;
  while (i < a.size() && a[i] == b[i]) ++i;
  if (a.size() != b.size()) return a.substr(i) == b.substr(i + 1);
  if (a.substr(i + 1) == b.substr(i + 1)) return true;  // substitution
  return i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] && a.substr(i + 2) == b.substr(i + 2);
}

std::string replaced(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The same words in another order: `login-action` for `action-login`.
std::vector<std::string_view> sortedWords(std::string_view s) {
  std::vector<std::string_view> words;
  for (std::size_t start = 0; start <= s.size();) {
    std::size_t end = s.find_first_of("-_/", start);
    if (end == std::string_view::npos) end = s.size();
    words.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  std::sort(words.begin(), words.end());
  return words;
}

// Letters that read as others: `rn` as `m`, `vv` as `w`.
std::string lookalike(std::string_view s) { return replaced(replaced(std::string(s), "rn", "m"), "vv", "w"); }

bool looksLike(const std::string& slug, std::string_view popular) {
  if (oneEditApart(slug, popular) || lookalike(slug) == lookalike(popular)) return true;
  return sortedWords(slug) == sortedWords(popular);
}

std::string_view ownerOf(std::string_view slug) { return slug.substr(0, slug.find('/')); }

// The popular action `uses` imitates, or empty.
std::string_view imitated(std::string_view uses) {
  std::string slug = usesRepository(uses);
  if (slug.empty() || std::find(kPopular.begin(), kPopular.end(), slug) != kPopular.end()) return {};
  for (std::string_view p : kPopular)
    if (ownerOf(p) != ownerOf(slug) && looksLike(slug, p)) return p;
  return {};
}

void checkUses(const Located& uses, std::vector<RuleHit>& out) {
  if (!uses.present()) return;
  std::string_view original = imitated(uses.text);
  if (!original.empty())
    out.push_back({"security/typosquat-uses",
                   "`" + uses.text.substr(0, uses.text.find('@')) + "` looks like `" + std::string(original) +
                       "`, owned by someone else.",
                   {uses.line}});
}

}  // namespace

void typosquatUsesHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs) {
    checkUses(j.uses, out);
    for (const StepModel& s : j.steps) checkUses(s.uses, out);
  }
}

}  // namespace lw::agents::security
