// Rules on how a workflow gets its tools: setup actions that fetch whatever
// version is latest, packages installed outside a lock file, actions that
// wrap what the runner already has, and setup features that defeat review
// (pip-install into the global Python, `shell: cmd`, shells nobody reads).
#include <algorithm>
#include <array>
#include <string>

#include "agents/security/workflow/shell_commands.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

// Actions that download a tool and take its version from an input whose
// default is "latest" (from each action's action.yml; the first two after
// zizmor's unpinned-tools audit).
struct ToolInstaller {
  std::string_view action;
  std::string_view versionInput;
};
constexpr std::array kToolInstallers = {
    ToolInstaller{"aquasecurity/setup-trivy", "version"},
    ToolInstaller{"1password/load-secrets-action", "version"},
    ToolInstaller{"hashicorp/setup-terraform", "terraform_version"},
    ToolInstaller{"azure/setup-helm", "version"},
    ToolInstaller{"azure/setup-kubectl", "version"},
};

// Third-party actions that wrap one command the runner already has (`gh`,
// `git`, `jq`, `docker`, `rustup`): their code, tags and maintainers are
// trusted for nothing the command would not do.
struct Superfluous {
  std::string_view action;
  std::string_view instead;
};
constexpr std::array kSuperfluous = {
    Superfluous{"ncipollo/release-action", "`gh release create`"},
    Superfluous{"softprops/action-gh-release", "`gh release create`"},
    Superfluous{"elgohr/github-release-action", "`gh release create`"},
    Superfluous{"svenstaro/upload-release-action", "`gh release create` and `gh release upload`"},
    Superfluous{"actions/create-release", "`gh release create` (the action is archived)"},
    Superfluous{"actions/upload-release-asset", "`gh release upload` (the action is archived)"},
    Superfluous{"peter-evans/create-pull-request", "`git push` and `gh pr create`"},
    Superfluous{"peter-evans/create-or-update-comment", "`gh pr comment` or `gh issue comment`"},
    Superfluous{"dacbd/create-issue-action", "`gh issue create`"},
    Superfluous{"actions-ecosystem/action-add-labels", "`gh issue edit --add-label` / `gh pr edit --add-label`"},
    Superfluous{"actions-ecosystem/action-remove-labels",
                "`gh issue edit --remove-label` / `gh pr edit --remove-label`"},
    Superfluous{"addnab/docker-run-action", "`docker run`, or a container step"},
    Superfluous{"sergeysova/jq-action", "`jq`"},
    Superfluous{"dtolnay/rust-toolchain", "`rustup toolchain install`"},
    Superfluous{"actions-rs/toolchain", "`rustup toolchain install` (the action is archived)"},
    Superfluous{"stefanzweifel/git-auto-commit-action", "`git add`, `git commit` and `git push`"},
    Superfluous{"endbug/add-and-commit", "`git add`, `git commit` and `git push`"},
};

bool isExpression(std::string_view v) { return trim(v).starts_with("${{"); }

bool anyOperandAfter(const std::vector<std::string>& words, std::size_t from) {
  return std::any_of(words.begin() + static_cast<std::ptrdiff_t>(std::min(from, words.size())), words.end(),
                     [](const std::string& w) { return !w.starts_with("-"); });
}

// `gem install rake`, `npm i lodash`, `yarn add x`, `bundle add x`: a
// package named on the command line, outside any lock file.
bool installsAdHoc(const std::vector<std::string>& c) {
  const std::string& p = c.front();
  auto position = [&](std::initializer_list<std::string_view> verbs) {
    auto it = std::find_if(c.begin() + 1, c.end(), [&](const std::string& w) {
      return std::find(verbs.begin(), verbs.end(), w) != verbs.end();
    });
    return static_cast<std::size_t>(it - c.begin());
  };
  if (p == "gem") return anyOperandAfter(c, position({"install", "i"}) + 1);
  if (p == "bundle" || p == "yarn" || p == "pnpm") return anyOperandAfter(c, position({"add"}) + 1);
  if (p != "npm") return false;
  auto verb = std::find_if(c.begin() + 1, c.end(), [](const std::string& w) { return !w.starts_with("-"); });
  static constexpr std::array kInstall = {"install", "i",    "in",    "ins",    "inst",    "insta",
                                          "instal",  "isnt", "isnta", "isntal", "isntall", "add"};
  if (verb == c.end() || std::find(kInstall.begin(), kInstall.end(), *verb) == kInstall.end()) return false;
  return anyOperandAfter(c, static_cast<std::size_t>(verb - c.begin()) + 1);
}

// `bash -e {0}` is "bash"; `C:\tools\cmd.exe` is "cmd".
std::string shellName(std::string_view shell) {
  std::string first(trim(shell).substr(0, trim(shell).find(' ')));
  first = first.substr(first.find_last_of("/\\") + 1);
  if (first.ends_with(".exe")) first.resize(first.size() - 4);
  return lowerCase(first);
}

void unpinnedToolHit(const StepModel& s, const ToolInstaller& t, std::vector<RuleHit>& out) {
  constexpr std::string_view kRule = "security/unpinned-tools";
  const Located* version = s.withValue(t.versionInput);
  std::string tool = "`" + std::string(t.action) + "` installs ";
  if (version == nullptr)
    out.push_back(
        {kRule, tool + "the latest release: `" + std::string(t.versionInput) + "` is not set.", {s.uses.line}});
  else if (lowerCase(trim(version->text)) == "latest")
    out.push_back({kRule,
                   tool + "the latest release (`" + std::string(t.versionInput) + ": latest`).",
                   {version->line, s.uses.line}});
  else if (isExpression(version->text))
    out.push_back(
        {kRule, tool + "the version an expression gives, which may be `latest`.", {version->line, s.uses.line}});
}

void shellHit(const Located& shell, std::vector<RuleHit>& out) {
  if (!shell.present()) return;
  std::string name = shellName(shell.text);
  if (name == "cmd")
    out.push_back({"security/misfeature", "`shell: cmd` runs this script with Windows CMD.", {shell.line}});
  else if (name != "bash" && name != "sh" && name != "pwsh" && name != "powershell" && name != "python")
    out.push_back(
        {"security/unusual-shell", "`shell: " + shell.text + "` is not a shell GitHub documents.", {shell.line}});
}

}  // namespace

void unpinnedToolsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      for (const ToolInstaller& t : kToolInstallers)
        if (usesAction(s, t.action) && !neverRuns(s)) unpinnedToolHit(s, t, out);
}

void adhocPackagesHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps) {
      if (!s.run.present() || neverRuns(s)) continue;
      std::vector<std::string_view> script = splitLines(s.run.text);
      std::vector<int> at = valueLineNumbers(lines, s.run.line, script);
      for (const ShellCommand& c : shellCommands(script))
        if (installsAdHoc(c.words))
          out.push_back({"security/adhoc-packages",
                         "`" + c.words.front() + "` installs a package named here, outside a lock file.",
                         {at[c.line]}});
    }
}

void superfluousActionsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      for (const Superfluous& a : kSuperfluous)
        if (usesAction(s, a.action) && !neverRuns(s))
          out.push_back({"security/superfluous-actions",
                         "`" + std::string(a.action) + "` does what " + std::string(a.instead) +
                             " does in a `run:` step, with the runner's own tools.",
                         {s.uses.line}});
}

// security/misfeature (`pip-install`, `shell: cmd`) and, for other shells
// nobody documents, security/unusual-shell.
void misfeatureHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  shellHit(w.defaultShell, out);
  for (const JobModel& j : w.jobs) {
    shellHit(j.defaultShell, out);
    for (const StepModel& s : j.steps) {
      shellHit(s.shell, out);
      const Located* pip = usesAction(s, "actions/setup-python") ? s.withValue("pip-install") : nullptr;
      if (pip != nullptr)
        out.push_back({"security/misfeature",
                       "`pip-install` installs into the runner's global Python.",
                       {pip->line, s.uses.line}});
    }
  }
}

}  // namespace lw::agents::security
