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
     "None of the workflow rules ran on this file, and GitHub's parser may still accept what "
     "loopwright's (yaml-cpp) refuses, so a risky workflow could pass unreviewed. Fix the YAML at "
     "the place named: spaces, not tabs, for indentation; quotes closed; one document whose top "
     "level is a mapping (`actionlint` reports the same locally). If GitHub reads the file as it "
     "is, review it by hand and disable this rule."},
    {"security/curl-pipe-shell", Severity::Warning,
     "A script piped from the network into a shell runs whatever the server (or anyone on the "
     "path) sends that day, unreviewed and unpinned. Download to a file, check its checksum or "
     "signature, then run it; or use a pinned package."},
    {"security/new-dependency", Severity::Notice,
     "A new or changed dependency runs its code in your builds and your product. Check that the "
     "name is the package you mean (typosquats), that the version is intended, and its source."},
    {"security/agent-prompt-injection", Severity::Error,
     "An AI agent follows instructions wherever they appear in its prompt, so an issue, comment or "
     "pull request title spliced into it lets its author steer the agent and everything the agent "
     "may do; it also skips the cleaning the action applies to what it fetches itself (hidden "
     "HTML comments, invisible characters). Keep event text out of the prompt: pass the number "
     "(`github.event.issue.number`) and let the agent read the content through its tools, or in "
     "gh-aw use `${{ steps.sanitized.outputs.text }}`."},
    {"security/agent-untrusted-actor", Severity::Error,
     "Anyone can open an issue or comment, so an agent started by these events while it holds a "
     "write token does what a stranger's text asks with that token. Keep the action's own "
     "write-access check (leave `allowed_non_write_users` / `allow-users` empty, `allowed_bots` "
     "without `*`), or for an action without one add `if:` on "
     "`github.event.comment.author_association` in OWNER, MEMBER, COLLABORATOR; and grant the job "
     "read scopes only, writing through a separate job (gh-aw: `safe-outputs:`)."},
    {"security/agent-untrusted-checkout", Severity::Error,
     "The agent reads the checked-out files as its instructions and configuration (CLAUDE.md, "
     "AGENTS.md, .gemini/, .mcp.json, package scripts its hooks run), so checking out the pull "
     "request's head into the workspace hands the pull request's author the agent and the "
     "secrets and token of this privileged event. Check out the base (the default); if the agent "
     "must see the pull request's files, check them out into a subdirectory (`path: pr-head`) "
     "and point the agent at it as data."},
    {"security/agent-dangerous-mode", Severity::Error,
     "This mode turns off what stands between a steered agent and the runner: permission "
     "prompts, the sandbox, or dropping sudo (with which it can read its API key from memory). "
     "On events outsiders can cause, remove it: keep codex-action's `sandbox: workspace-write` "
     "(or `read-only`) and `safety-strategy: drop-sudo`, and list the tools Claude or Gemini may "
     "use instead of skipping permissions."},
    {"security/agent-unrestricted-shell", Severity::Warning,
     "An agent allowed any shell command can run whatever injected text asks: read the token and "
     "secrets from its environment, push, or send data out. Allow the commands it needs, by "
     "pattern: `--allowedTools \"Bash(gh issue view:*)\"`, Gemini's `tools.core` with "
     "`run_shell_command(git diff)`, gh-aw's `bash: [\"git diff\"]`."},
    {"security/agent-mcp-secret", Severity::Warning,
     "An MCP server runs beside the agent with the secrets it is given, and the agent calls its "
     "tools on whatever instructions reach it; a steered agent uses the secret for the attacker. "
     "Give the server the narrowest credential that works (the job's `GITHUB_TOKEN` with "
     "`permissions:` scoped, a read-only key), and allow only the tools needed (gh-aw `allowed:`, "
     "Gemini `includeTools`)."},
    {"security/agent-taskpack-outbound", Severity::Warning,
     "`direct-dedicated` runs a step with no sandbox at all, and `allow-outbound` lets it reach "
     "any host: on a self-hosted runner without a host config (where `allowDirectDedicated` "
     "defaults to true) an agent step then has the machine and its network. Keep "
     "`networkMode: none` or `loopback-only` (the bridge carries model and GitHub calls), or "
     "drop `direct-dedicated` from `preferredBackends`; on self-hosted runners write a host "
     "config whose floor keeps `allowDirectDedicated: false`."},
};

}  // namespace

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
  f.message = hit.detail + "\n\n" + std::string(rule->advice);
  f.path = path;
  f.line = line;
  return f;
}

}  // namespace lw::agents::security
