// security/insecure-url-scheme and security/archived-action over a
// pre-commit configuration: each entry of `repos:` names, in `repo:`, the
// git repository pre-commit clones and whose hooks it then runs on every
// commit of every developer (and in CI).
#include <string>

#include "agents/security/file_rules/config_file_rules.h"
#include "agents/security/text.h"
#include "agents/security/workflow/archived_repositories.h"

namespace lw::agents::security {

namespace {

int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

// The URL's scheme in lower case ("http"), empty when it has none (a
// scp-like `git@host:path` or a local path).
std::string schemeOf(std::string_view url) {
  std::size_t end = url.find("://");
  return end == std::string_view::npos ? std::string() : lowerCase(url.substr(0, end));
}

// "owner/repo" of a github.com URL, lower case; empty for any other host.
std::string gitHubRepository(std::string_view url) {
  std::size_t start = url.find("://");
  if (start == std::string_view::npos) return {};
  std::string_view rest = url.substr(start + 3);
  std::string_view host = rest.substr(0, rest.find('/'));
  if (lowerCase(host) != "github.com" && lowerCase(host) != "www.github.com") return {};
  std::string_view path = host.size() < rest.size() ? rest.substr(host.size() + 1) : std::string_view{};
  while (path.ends_with('/')) path.remove_suffix(1);
  if (path.ends_with(".git")) path.remove_suffix(4);
  return usesRepository(path);
}

void repoHits(const YAML::Node& url, std::vector<RuleHit>& out) {
  const std::string& text = url.Scalar();
  std::string scheme = schemeOf(text);
  if (scheme == "http" || scheme == "git")
    out.push_back({"security/insecure-url-scheme",
                   "`repo: " + text + "` is fetched over `" + scheme +
                       "://`, which is neither encrypted nor "
                       "authenticated.",
                   {lineOf(url)}});
  std::string repository = gitHubRepository(text);
  if (!repository.empty() && isArchivedRepository(repository))
    out.push_back({"security/archived-action",
                   "The pre-commit hooks of `" + text + "` come from `" + repository + "`, an archived repository.",
                   {lineOf(url)}});
}

}  // namespace

void preCommitHits(const YAML::Node& root, std::vector<RuleHit>& out) {
  const YAML::Node repos = root["repos"];
  if (!repos || !repos.IsSequence()) return;  // pre-commit refuses the file: no hook runs
  for (const YAML::Node& entry : repos) {
    const YAML::Node url = entry.IsMap() ? entry["repo"] : YAML::Node();
    // `local` and `meta` name no repository: their hooks are in this one, or pre-commit's own.
    if (url && url.IsScalar() && url.Scalar() != "local" && url.Scalar() != "meta") repoHits(url, out);
  }
}

}  // namespace lw::agents::security
