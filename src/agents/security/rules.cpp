#include "agents/security/rules.h"

#include <cstdlib>

namespace lw::agents::security {

namespace {

// Severities: error for what lets an outsider run code or read secrets as
// it stands; warning for what widens the blast radius of another flaw or
// trusts someone else's mutable code; notice for what a reviewer should look
// at but is not a flaw by itself (new dependencies, tags of GitHub's own
// actions). A workflow that could not be read is an error: it stands for
// every workflow rule that did not run on it, the error ones among them.
const std::vector<RuleInfo> kRules = {
    {"security/secret", Severity::Error,
     "A credential committed to the repository is readable by everyone who can read the repository, "
     "forever (it stays in the history). Revoke it now, then read it from a secret "
     "(`${{ secrets.NAME }}`) or the environment."},
    {"security/expression-injection", Severity::Error,
     "`${{ … }}` is expanded into the script before the shell runs it, so a pull request title, "
     "branch name or comment can inject commands. Pass the value through `env:` and use the "
     "variable, quoted: `env: TITLE: ${{ github.event.pull_request.title }}` then `\"$TITLE\"`."},
    {"security/github-env-injection", Severity::Error,
     "Lines written to `GITHUB_ENV` or `GITHUB_PATH` set the environment of every later step: "
     "untrusted text there can set `LD_PRELOAD`, `NODE_OPTIONS` or `PATH` and run code. Do not "
     "write untrusted input there; pass it to the steps that need it through `env:` or step "
     "outputs, validated."},
    {"security/untrusted-checkout", Severity::Error,
     "`pull_request_target` and `workflow_run` run with a write token and the repository's secrets; "
     "checking out the pull request's head and then building or running it hands both to the "
     "pull request's author. Check out the base (the default), or split the work: build the head "
     "in a `pull_request` workflow without secrets and use its artifacts as data only."},
    {"security/write-all-permissions", Severity::Warning,
     "`permissions: write-all` gives the job's `GITHUB_TOKEN` every write scope, so any injected "
     "or compromised step can push code, publish releases and change settings. Grant only the "
     "scopes the job needs, e.g. `permissions: { contents: read, pull-requests: write }`."},
    {"security/missing-permissions", Severity::Warning,
     "This workflow runs on an event outsiders can trigger and sets no `permissions:`, so its "
     "token has the repository's default scopes (write on older repositories). Add "
     "`permissions: {}` or `contents: read` at the top, and grant more per job."},
    {"security/unpinned-action", Severity::Warning,
     "A tag or branch of a third-party action can be moved to other code at any time (as with "
     "tj-actions/changed-files in 2025). Pin it to a full 40-character commit SHA, with the "
     "version in a comment: `uses: owner/action@<sha> # v1.2.3`."},
    {"security/unpinned-github-action", Severity::Notice,
     "Actions owned by GitHub (`actions/*`, `github/*`) are lower risk, but a tag is still "
     "mutable. Pin to a full commit SHA where the workflow holds secrets or write permissions."},
    {"security/unpinned-image", Severity::Warning,
     "A container image tag can be pushed again with other content. Pin the image to its digest: "
     "`image: name@sha256:<digest>` (the tag may stay before the `@` for readers)."},
    {"security/secrets-inherit", Severity::Warning,
     "`secrets: inherit` passes every secret of this repository to a reusable workflow owned by "
     "someone else. Pass only the secrets it needs, by name, under `secrets:`."},
    {"security/persist-credentials", Severity::Warning,
     "`actions/checkout` leaves the token in `.git/config` unless `persist-credentials: false`; "
     "this job uploads artifacts, and an artifact that includes the checkout leaks the token. "
     "Set `persist-credentials: false` on the checkout."},
    {"security/cache-in-release", Severity::Warning,
     "A release or publishing workflow restores a cache, and caches can be written by any "
     "workflow of the repository, including one a pull request runs: a poisoned cache then ends "
     "up in the published artifact. Do not restore caches when building what you publish."},
    {"security/unsecure-commands", Severity::Error,
     "`ACTIONS_ALLOW_UNSECURE_COMMANDS` re-enables the `set-env` and `add-path` workflow "
     "commands, which any text a step prints can use to set the environment of later steps. "
     "Remove it and write to `$GITHUB_ENV` / `$GITHUB_PATH` instead."},
    {"security/bot-actor-condition", Severity::Warning,
     "`github.actor` is whoever caused the latest event, not the pull request's author: anyone "
     "can push to a bot's pull request branch or re-trigger its run and pass this check. Test "
     "`github.event.pull_request.user.login` instead."},
    {"security/self-hosted-pr", Severity::Warning,
     "A pull request from a fork runs its code on this self-hosted runner, which keeps state "
     "between jobs and can reach your network. Run pull request jobs on GitHub-hosted (or "
     "ephemeral, isolated) runners."},
    {"security/unparsed-workflow", Severity::Error,
     "None of the rules for this file (a workflow, an action, a Dependabot or pre-commit configuration) ran on "
     "it, and GitHub's parser may still accept what loopwright's (yaml-cpp) refuses, so a risky file could "
     "pass unreviewed. Fix the YAML at "
     "the place named: spaces, not tabs, for indentation; quotes closed; one document whose top "
     "level is a mapping (`actionlint` reports the same for a workflow). If GitHub reads the file as it "
     "is, review it by hand and disable this rule."},
    {"security/curl-pipe-shell", Severity::Warning,
     "A script piped from the network into a shell runs whatever the server (or anyone on the "
     "path) sends that day, unreviewed and unpinned. Download to a file, check its checksum or "
     "signature, then run it; or use a pinned package."},
    {"security/new-dependency", Severity::Notice,
     "A new or changed dependency runs its code in your builds and your product. Check that the "
     "name is the package you mean (typosquats), that the version is intended, and its source."},
    {"security/untraced-expression", Severity::Notice,
     "`${{ … }}` is expanded into a script (or an action input that runs as code) before it runs, "
     "and its value comes from somewhere this workflow does not fix: an action's output, an input "
     "its caller sets, an environment variable set elsewhere. If that source can ever hold text an "
     "outsider chose, the script can be injected. Pass the value through `env:` and use the "
     "variable, quoted, as for `security/expression-injection`.",
     Confidence::Low, Persona::Default},
    {"security/overprovisioned-secrets", Severity::Warning,
     "`toJSON(secrets)`, or `secrets[…]` indexed by a computed name, puts every secret of the repository in "
     "the job, where any step (or anything that compromises one) can read them all. Name the secrets the "
     "job needs: `${{ secrets.NPM_TOKEN }}`.",
     Confidence::High, Persona::Default},
    {"security/unredacted-secrets", Severity::Warning,
     "The runner masks a secret's value in the logs, but not the parts `fromJSON(secrets.X)` decodes from it: "
     "a field printed by any step is in the clear. Store each value as its own secret and use it whole.",
     Confidence::High, Persona::Default},
    {"security/unsound-condition", Severity::Warning,
     "An `if:` whose `${{ … }}` has anything around it (text, a second expression, the newline a `|` or `>` "
     "block keeps) is a string, and a non-empty string is true: the step or job always runs. Write the "
     "condition as one expression (`if: ${{ a && b }}` or bare `if: a && b`); for a block use `|-` or `>-`.",
     Confidence::High, Persona::Default},
    {"security/unsound-contains", Severity::Warning,
     "`contains('main,release', github.ref_name)` is a substring test: a branch named `mai` or `n,rel` passes "
     "it. Compare whole values (`github.ref_name == 'main' || github.ref_name == 'release'`) or use "
     "`contains(fromJSON('[\"main\", \"release\"]'), github.ref_name)`.",
     Confidence::Medium, Persona::Default},
    {"security/hardcoded-container-credentials", Severity::Error,
     "A registry password written into a workflow is readable by everyone who can read the repository, "
     "forever (it stays in the history). Revoke it, then use a secret: `password: ${{ secrets.REGISTRY_PASSWORD }}`.",
     Confidence::High, Persona::Default},
    {"security/use-trusted-publishing", Severity::Notice,
     "This publishes with a long-lived registry token, which leaks with the job's secrets and stays valid. "
     "PyPI, npm, crates.io, RubyGems and NuGet accept the workflow's own short-lived OIDC identity instead "
     "(trusted publishing): grant `id-token: write`, configure the registry, and drop the token.",
     Confidence::Medium, Persona::Default},
    {"security/github-app-token", Severity::Warning,
     "A GitHub App token carries what the app was granted on every repository it is installed on, and lives an "
     "hour unless revoked. Scope it: `repositories:` with `owner:`, `permission-<scope>:` inputs for what the "
     "job needs, and leave `skip-token-revoke` unset so it is revoked when the job ends.",
     Confidence::High, Persona::Default},
    {"security/concurrency-limits", Severity::Notice,
     "Without `concurrency:` and `cancel-in-progress`, every push starts another run beside the older ones: "
     "runner time an outsider can spend by pushing, and races between runs that look up artifacts by name. "
     "Add `concurrency: { group: ${{ github.workflow }}-${{ github.ref }}, cancel-in-progress: true }`.",
     Confidence::High, Persona::Pedantic},
    {"security/obfuscation", Severity::Notice,
     "`uses:` paths with `.`, `..` or empty components, constant expressions and a `with:` that is one "
     "expression run as something other than what they read as, and slip past the pattern matching of "
     "reviewers and of the other rules. Write the plain form: `actions/checkout@…`, the constant's value, "
     "`with:` as a mapping.",
     Confidence::High, Persona::Default},
    {"security/undocumented-permissions", Severity::Notice,
     "A permission without a reason is hard to review and rarely taken away. Say on the scope's line what "
     "needs it: `issues: write # to label new issues`.",
     Confidence::High, Persona::Pedantic},
    {"security/typosquat-uses", Severity::Warning,
     "This action's owner/repo is one typo away from a widely used action but belongs to someone else: a "
     "typosquatter registers such names so that a slip runs their code with the job's token and secrets. "
     "Check the name against the action you meant, and pin that action's commit SHA.",
     Confidence::Low, Persona::Default},
    {"security/secrets-outside-env", Severity::Warning,
     "A secret read by a job without an `environment:` is available to every branch and workflow of the "
     "repository; an environment can require reviewers, restrict branches and hold its own secrets. Move the "
     "secret to an environment and name it on the job: `environment: release`.",
     Confidence::High, Persona::Auditor},
    {"security/unpinned-tools", Severity::Warning,
     "This setup action downloads whatever release of its tool is latest when the job runs: a compromised or "
     "broken release reaches the job with no change to the workflow, however well the action itself is pinned. "
     "Set the version input to an exact version.",
     Confidence::High, Persona::Default},
    {"security/adhoc-packages", Severity::Notice,
     "A package installed by name in a script takes whatever version (and dependencies) the registry serves "
     "that day, outside any lock file. Add it to a manifest with a committed lock file and install with "
     "`npm ci`, `bundle install` and the like.",
     Confidence::High, Persona::Default},
    {"security/superfluous-actions", Severity::Notice,
     "This action wraps a command the runner already has; every third-party action is code, tags and "
     "maintainers the job trusts with its token. Run the command in a `run:` step instead.",
     Confidence::Medium, Persona::Pedantic},
    {"security/misfeature", Severity::Notice,
     "`setup-python`'s `pip-install` installs into the runner's global Python, and `shell: cmd` has no grammar "
     "reviewers and tools can read (several ways to continue a line, no quoting rules worth the name). Use a "
     "virtual environment (`python -m venv`) and `shell: pwsh` or `bash`.",
     Confidence::High, Persona::Default},
    {"security/unusual-shell", Severity::Notice,
     "A `shell:` other than bash, sh, pwsh, powershell, python or cmd runs the script with a program whose "
     "rules neither reviewers nor these rules know. Use a documented shell and call the program from it.",
     Confidence::High, Persona::Auditor},
    {"security/self-hosted-runner", Severity::Warning,
     "A self-hosted runner keeps state between jobs and reaches your network: whoever can run a job on it "
     "(a pull request, a compromised action) can persist there. Use GitHub-hosted or ephemeral, isolated "
     "runners, or make sure only trusted events reach this job.",
     Confidence::Medium, Persona::Auditor},
    {"security/unsound-ternary", Severity::Notice,
     "`cond && value || fallback` imitates a ternary only while `value` is truthy; with `''`, `0`, `false` or "
     "`null` there it yields `fallback` whatever `cond` is, so the branch the author meant never happens. Use "
     "`case(cond, value, fallback)`, or reorder so the true value cannot be falsy (`!cond && fallback || value`).",
     Confidence::High, Persona::Default},
    {"security/agent-prompt-injection", Severity::Error,
     "An AI agent follows instructions wherever they appear in its prompt, so an issue, comment or "
     "pull request title spliced into it lets its author steer the agent and everything the agent "
     "may do; it also skips the cleaning the action applies to what it fetches itself (hidden "
     "HTML comments, invisible characters). Keep event text out of the prompt: pass the number "
     "(`github.event.issue.number`) and let the agent read the content through its tools, or in "
     "gh-aw use `${{ steps.sanitized.outputs.text }}`.",
     Confidence::High, Persona::Default},
    {"security/agent-untrusted-actor", Severity::Error,
     "Anyone can open an issue or comment, so an agent started by these events while it holds a "
     "write token does what a stranger's text asks with that token. Keep the action's own "
     "write-access check (leave `allowed_non_write_users` / `allow-users` empty, `allowed_bots` "
     "without `*`), or for an action without one add `if:` on "
     "`github.event.comment.author_association` in OWNER, MEMBER, COLLABORATOR; and grant the job "
     "read scopes only, writing through a separate job (gh-aw: `safe-outputs:`).",
     Confidence::High, Persona::Default},
    {"security/agent-untrusted-checkout", Severity::Error,
     "The agent reads the checked-out files as its instructions and configuration (CLAUDE.md, "
     "AGENTS.md, .gemini/, .mcp.json, package scripts its hooks run), so checking out the pull "
     "request's head into the workspace hands the pull request's author the agent and the "
     "secrets and token of this privileged event. Check out the base (the default); if the agent "
     "must see the pull request's files, check them out into a subdirectory (`path: pr-head`) "
     "and point the agent at it as data.",
     Confidence::High, Persona::Default},
    {"security/agent-dangerous-mode", Severity::Error,
     "This mode turns off what stands between a steered agent and the runner: permission "
     "prompts, the sandbox, or dropping sudo (with which it can read its API key from memory). "
     "On events outsiders can cause, remove it: keep codex-action's `sandbox: workspace-write` "
     "(or `read-only`) and `safety-strategy: drop-sudo`, and list the tools Claude or Gemini may "
     "use instead of skipping permissions.",
     Confidence::High, Persona::Default},
    {"security/agent-unrestricted-shell", Severity::Warning,
     "An agent allowed any shell command can run whatever injected text asks: read the token and "
     "secrets from its environment, push, or send data out. Allow the commands it needs, by "
     "pattern: `--allowedTools \"Bash(gh issue view:*)\"`, Gemini's `tools.core` with "
     "`run_shell_command(git diff)`, gh-aw's `bash: [\"git diff\"]`.",
     Confidence::High, Persona::Default},
    {"security/agent-mcp-secret", Severity::Warning,
     "An MCP server runs beside the agent with the secrets it is given, and the agent calls its "
     "tools on whatever instructions reach it; a steered agent uses the secret for the attacker. "
     "Give the server the narrowest credential that works (the job's `GITHUB_TOKEN` with "
     "`permissions:` scoped, a read-only key), and allow only the tools needed (gh-aw `allowed:`, "
     "Gemini `includeTools`).",
     Confidence::Medium, Persona::Default},
    {"security/agent-taskpack-outbound", Severity::Warning,
     "`direct-dedicated` runs a step with no sandbox at all, and `allow-outbound` lets it reach "
     "any host: on a self-hosted runner without a host config (where `allowDirectDedicated` "
     "defaults to true) an agent step then has the machine and its network. Keep "
     "`networkMode: none` or `loopback-only` (the bridge carries model and GitHub calls), or "
     "drop `direct-dedicated` from `preferredBackends`; on self-hosted runners write a host "
     "config whose floor keeps `allowDirectDedicated: false`.",
     Confidence::Medium, Persona::Default},
    {"security/default-permissions", Severity::Notice,
     "A job without `permissions:` in a workflow without them gets the repository's default token, which "
     "the repository's or organisation's settings decide and which is `write` for most scopes in older "
     "repositories: every step, and anything that compromises one, can push and edit issues with it. Set "
     "`permissions: {}` at the top and grant each job the scopes it needs (`contents: read`).",
     Confidence::Medium, Persona::Default},
    {"security/broad-permissions", Severity::Warning,
     "A scope granted at the workflow level reaches every job that sets none of its own, including those "
     "that do not need it; `read-all` lets the token read every scope (packages, security events, ...). Grant "
     "`write` scopes on the job that uses them and name the scopes a job reads instead of `read-all`.",
     Confidence::High, Persona::Default},
    {"security/debug-logging", Severity::Notice,
     "`ACTIONS_STEP_DEBUG` or `ACTIONS_RUNNER_DEBUG` set to `true` writes the runner's debug log into the run's "
     "logs, which everyone who can read the repository can read: values the steps handle that are not "
     "registered as secrets (tokens read from files, decoded parts of secrets) end up there. Turn debug "
     "logging on for one re-run instead (\"Enable debug logging\" when re-running a job), not in the workflow.",
     Confidence::High, Persona::Default},
    {"security/workspace-relative-uses", Severity::Notice,
     "`uses: ./path` runs the action or workflow found at that path in the workspace when the step starts, "
     "which an earlier step can replace (a checkout of another ref, a download) and which GitHub's "
     "pinning policies cannot hold. GitHub's self-repository form, `uses: $/path`, always runs this "
     "repository's file at the workflow's own commit.",
     Confidence::High, Persona::Default},
    {"security/checkout-persists-token", Severity::Notice,
     "`actions/checkout` writes the job's token into the workspace (`.git/config`, or a file under the "
     "runner's temporary directory from v6) so that later `git` commands can push; every later step can read "
     "it there, and an artifact, cache or image built from the workspace can carry it out. Set "
     "`persist-credentials: false` unless a later step pushes with it.",
     Confidence::Low, Persona::Default},
    {"security/archived-action", Severity::Warning,
     "This action, reusable workflow or pre-commit hook comes from a repository its owner has archived: it takes no "
     "more "
     "changes, so a vulnerability found in it or in what it bundles (its Node.js runtime, its dependencies) "
     "will not be fixed. Move to a maintained fork or an alternative, pinned to a commit SHA: "
     "`ruby/setup-ruby` for `actions/setup-ruby`, `gh release create` in a `run:` step for "
     "`actions/create-release`, `dtolnay/rust-toolchain` and plain `cargo` for `actions-rs/*`.",
     Confidence::High, Persona::Default},
    {"security/dangerous-trigger", Severity::Notice,
     "This trigger runs with a write token and the repository's secrets on an event an outsider causes: "
     "`pull_request_target` on anyone's pull request, `workflow_run` after a workflow a pull request "
     "started. It is almost always used insecurely, since one step that checks out, builds or reads the "
     "pull request's code or text hands both to its author. Prefer `pull_request` (no secrets, a read-only "
     "token for forks), with what needs a token in a workflow that reads the pull request's results as "
     "data only. Where the trigger is needed: never check out or run the pull request's code, grant the "
     "least `permissions:`, and put secrets behind an environment with required reviewers.",
     Confidence::Medium, Persona::Default},
    {"security/dependabot-cooldown", Severity::Warning,
     "Dependabot proposes a new release of a dependency as soon as its cooldown has passed, and its default "
     "cooldown is 3 days. A compromised release is usually found and pulled within days; a pull request "
     "opened, or merged automatically, before then brings it in. Give each `updates:` entry "
     "`cooldown: { default-days: 7 }` (or more); security updates are not delayed by it.",
     Confidence::High, Persona::Default},
    {"security/dependabot-execution", Severity::Error,
     "`insecure-external-code-execution: allow` lets the package manager run the code of the dependencies it "
     "resolves (`setup.py`, Gradle scripts, Bundler's gemspecs) while Dependabot updates them, with the "
     "credentials of the private registries Dependabot is given: a compromised or malicious release runs "
     "there and can read them. Set it to `deny` (the default) or remove it; if an ecosystem cannot update "
     "without it, give that entry no registry credentials.",
     Confidence::High, Persona::Default},
    {"security/insecure-url-scheme", Severity::Error,
     "pre-commit clones each `repo:` and runs its hooks on every commit, on every developer's machine and in "
     "CI. Over `http://` or `git://` nothing is encrypted or authenticated, so anyone on the network path can "
     "serve other code in its place. Use `https://` (or `ssh://`), and pin `rev:` to a full commit SHA.",
     Confidence::High, Persona::Default},
};

}  // namespace

std::string_view toString(Confidence c) {
  switch (c) {
    case Confidence::High: return "high";
    case Confidence::Medium: return "medium";
    case Confidence::Low: return "low";
  }
  return "high";
}

std::string_view toString(Persona p) {
  switch (p) {
    case Persona::Default: return "default";
    case Persona::Pedantic: return "pedantic";
    case Persona::Auditor: return "auditor";
  }
  return "default";
}

std::optional<Persona> parsePersona(std::string_view s) {
  for (Persona p : {Persona::Default, Persona::Pedantic, Persona::Auditor})
    if (s == toString(p)) return p;
  return std::nullopt;
}

const std::vector<RuleInfo>& allRules() { return kRules; }

const RuleInfo* findRule(std::string_view id) {
  for (const RuleInfo& r : kRules)
    if (r.id == id) return &r;
  return nullptr;
}

Finding toFinding(const RuleHit& hit, const std::string& path, int line) {
  const RuleInfo* rule = findRule(hit.ruleId);
  // Every hit names a rule of the table; anything else is a programming error.
  if (rule == nullptr) std::abort();
  Finding f;
  f.ruleId = std::string(rule->id);
  f.severity = rule->severity;
  f.message =
      hit.detail + " (confidence: " + std::string(toString(rule->confidence)) + ")\n\n" + std::string(rule->advice);
  f.path = path;
  f.line = line;
  return f;
}

}  // namespace lw::agents::security
