// gh-aw workflows: the frontmatter's keys as github/gh-aw documents them
// (docs/src/content/docs/reference/ at the commits below), and the Markdown
// prompt after it.
// - triggers.md (0cf9f7cf3809f571f9dc73edb1f0e4bfdf0afe77): `on.roles` (older
//   workflows: top-level `roles`), an allowlist of repository roles, default
//   [admin, maintainer, write]; `all`, `read` or `triage` let outsiders start
//   the agent.
// - permissions.md: the agent job is meant to be read-only, writes go through
//   `safe-outputs:`; absent `permissions:` is read-only.
// - tools.md (013eaf356626f164968420ebf54b1d7473cbd119): `tools.bash`, where
//   `:*` or `*` is every command; `mcp-servers.<name>.env` / `headers`, and
//   `allowed`, the tools the agent may call.
// - sandbox.md (471bb38b15d38261902d4e934050768f3529504a): `sandbox.agent:
//   false` turns off the agent's firewall container.
// - .github/aw/context.md (8600a14c4462c300a6bccfc621c171326a7f92a1): the
//   expressions the prompt may hold; titles are allowed, and
//   `steps.sanitized.outputs.text` is the recommended, cleaned form.
// - cross-repository.md / checkout.md: `checkout:` (a mapping or a list) with
//   `ref:` and `path:`, the agent job's checkout.
#include <string>

#include <yaml-cpp/yaml.h>

#include "agents/security/workflow_rules/agent_rule_support.h"
#include "agents/security/workflow_rules/agentic_workflow_rules.h"
#include "agents/security/workflow_rules/workflow_rules.h"
#include "policy/yaml/yaml_document.h"

namespace lw::agents::security {

namespace {

constexpr std::string_view kAgent = "the gh-aw agent";

int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

// The frontmatter's closing `---` (0-based line index), or 0 when there is none.
std::size_t frontmatterEnd(const FileLines& lines) {
  if (lines.empty() || trim(lines[0]) != "---") return 0;
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (trim(lines[i]) == "---") return i;
  return 0;
}

// The frontmatter as YAML whose line numbers are the file's: the opening
// `---` becomes a comment line.
std::string frontmatterText(const FileLines& lines, std::size_t end) {
  std::string text = "#\n";
  for (std::size_t i = 1; i < end; ++i) text.append(lines[i]).push_back('\n');
  return text;
}

// gh-aw's shorthands: `on: /my-bot` is a slash command, `on: issue labeled
// bug` an issues trigger.
std::vector<Located> expandedTriggers(const std::vector<Located>& triggers) {
  std::vector<Located> out = triggers;
  for (const Located& t : triggers) {
    if (t.text.starts_with("/")) out.push_back({"slash_command", t.line});
    if (t.text.starts_with("issue ")) out.push_back({"issues", t.line});
  }
  return out;
}

std::vector<Located> scalars(const YAML::Node& n) {
  std::vector<Located> out;
  if (n && n.IsScalar()) out.push_back({n.Scalar(), lineOf(n)});
  if (n && n.IsSequence())
    for (const YAML::Node& e : n)
      if (e.IsScalar()) out.push_back({e.Scalar(), lineOf(e)});
  return out;
}

void rolesHit(const YAML::Node& root, const WorkflowModel& w, const Located& trigger, std::vector<RuleHit>& out) {
  const YAML::Node on = root["on"];
  std::vector<Located> roles = scalars(on && on.IsMap() ? on["roles"] : YAML::Node());
  for (const Located& r : scalars(root["roles"])) roles.push_back(r);
  const Located* open = nullptr;
  for (const Located& r : roles)
    if (r.text == "all" || r.text == "read" || r.text == "triage") open = &r;
  std::optional<WriteGrant> grant =
      w.permissions.present() ? writeGrant(w.permissions, w.permissionScopes) : std::nullopt;
  if (open == nullptr || !grant) return;
  out.push_back({"security/agent-untrusted-actor",
                 "On `" + trigger.text + "`, `roles: " + open->text + "` lets users without write access start " +
                     std::string(kAgent) + ", which holds " + grant->what + ".",
                 {open->line, grant->line, trigger.line}});
}

bool sandboxOff(const YAML::Node& root) {
  const YAML::Node sandbox = root["sandbox"];
  return sandbox && sandbox.IsMap() && sandbox["agent"] && sandbox["agent"].IsScalar() &&
         sandbox["agent"].Scalar() == "false";
}

// gh-aw runs the agent in its firewall container, without the model's key
// (an API proxy holds it) and with a read-only token, writing through
// safe-outputs: every command inside that is what `:*` is documented for.
// It is a finding when the container is off or the token writes.
void bashHit(const YAML::Node& root, const WorkflowModel& w, std::vector<RuleHit>& out) {
  const YAML::Node tools = root["tools"];
  if (!tools || !tools.IsMap()) return;
  std::optional<WriteGrant> grant =
      w.permissions.present() ? writeGrant(w.permissions, w.permissionScopes) : std::nullopt;
  if (!grant && !sandboxOff(root)) return;
  std::string with = grant ? "with " + grant->what : "outside its firewall container (`sandbox.agent: false`)";
  for (const Located& c : scalars(tools["bash"]))
    if (c.text == ":*" || c.text == "*")
      out.push_back(
          {"security/agent-unrestricted-shell",
           "`tools.bash: [\"" + c.text + "\"]` lets " + std::string(kAgent) + " run any command " + with + ".",
           {c.line}});
}

void sandboxHit(const YAML::Node& root, std::vector<RuleHit>& out) {
  if (!sandboxOff(root)) return;
  out.push_back({"security/agent-dangerous-mode",
                 "`sandbox.agent: false` runs " + std::string(kAgent) + " without its firewall container.",
                 {lineOf(root["sandbox"]["agent"])}});
}

// Secrets in a server's env: or headers:, when no `allowed:` list (or only
// `*`) narrows the tools the agent may call with them.
void mcpHits(const YAML::Node& root, std::vector<RuleHit>& out) {
  const YAML::Node servers = root["mcp-servers"];
  if (!servers || !servers.IsMap()) return;
  for (auto it = servers.begin(); it != servers.end(); ++it) {
    const YAML::Node server = it->second;
    if (!server.IsMap()) continue;
    std::vector<Located> allowed = scalars(server["allowed"]);
    if (!allowed.empty() && !(allowed.size() == 1 && allowed.front().text == "*")) continue;
    for (const char* key : {"env", "headers"}) {
      const YAML::Node values = server[key];
      if (!values || !values.IsMap()) continue;
      for (auto v = values.begin(); v != values.end(); ++v)
        for (const std::string& secret : namedSecrets(v->second.IsScalar() ? v->second.Scalar() : ""))
          out.push_back({"security/agent-mcp-secret",
                         "MCP server `" + it->first.Scalar() + "` is given `secrets." + secret +
                             "` and lets the agent call every one of its tools (no `allowed:`).",
                         {lineOf(v->first), lineOf(it->first)}});
    }
  }
}

void checkoutHit(const YAML::Node& root, const Located& trigger, std::vector<RuleHit>& out) {
  std::vector<YAML::Node> checkouts;
  const YAML::Node c = root["checkout"];
  if (c && c.IsMap()) checkouts.push_back(c);
  if (c && c.IsSequence())
    for (const YAML::Node& e : c) checkouts.push_back(e);
  for (const YAML::Node& e : checkouts) {
    if (!e.IsMap() || !e["ref"] || !e["ref"].IsScalar() || e["path"]) continue;
    if (!refIsPullRequestHead(e["ref"].Scalar())) continue;
    out.push_back({"security/agent-untrusted-checkout",
                   "On `" + trigger.text + "`, `checkout.ref: " + e["ref"].Scalar() +
                       "` puts the pull request's files where " + std::string(kAgent) + " reads its instructions.",
                   {lineOf(e["ref"]), trigger.line}});
  }
}

// The prompt's expressions are read as the frontmatter's workflow would
// read them (its env:); no step of the agent job is known to the model.
void bodyHits(const WorkflowModel& w, const FileLines& lines, std::size_t end, std::vector<RuleHit>& out) {
  std::string body;
  for (std::size_t i = end + 1; i < lines.size(); ++i) body.append(lines[i]).push_back('\n');
  forEachOutsiderText(body, static_cast<int>(end) + 2, lines, {w}, [&](const std::string& via, int line) {
    out.push_back({"security/agent-prompt-injection",
                   via + " is spliced into the prompt of " + std::string(kAgent) + " unsanitised.",
                   {line}});
  });
}

void frontmatterHits(const YAML::Node& root, const WorkflowModel& w, std::vector<RuleHit>& out) {
  std::vector<Located> triggers = expandedTriggers(w.triggers);
  const Located* trigger = outsiderTrigger(triggers);
  if (trigger == nullptr) return;
  rolesHit(root, w, *trigger, out);
  bashHit(root, w, out);
  sandboxHit(root, out);
  mcpHits(root, out);
  checkoutHit(root, *trigger, out);
}

}  // namespace

bool isAgenticWorkflowPath(std::string_view path) {
  std::string_view n = baseName(path);
  return path.substr(0, path.size() - n.size()) == ".github/workflows/" && n.ends_with(".md");
}

std::vector<RuleHit> agenticWorkflowHits(const FileLines& lines) {
  std::vector<RuleHit> out;
  std::size_t end = frontmatterEnd(lines);
  if (end == 0) return out;
  std::string text = frontmatterText(lines, end);
  Result<WorkflowModel> w = parseWorkflow(text, false);
  std::vector<Diagnostic> problems;
  std::optional<YAML::Node> root = parseYamlDocument(text, "", text.size() + 1, problems);
  if (!w || !root || !root->IsMap()) return out;
  try {
    frontmatterHits(*root, *w, out);
  } catch (const YAML::Exception&) {
    return out;  // a key that is not a scalar, and the like: gh-aw refuses the file too
  }
  bodyHits(*w, lines, end, out);
  return out;
}

}  // namespace lw::agents::security
