// Rules on what a step's script text does: expressions expanded into it,
// writes to GITHUB_ENV / GITHUB_PATH, downloads piped to a shell, and the
// unsecure workflow commands.
#include <cctype>
#include <string>

#include "agents/security/shell_rules.h"
#include "agents/security/untrusted_context.h"
#include "agents/security/workflow_rules.h"

namespace lw::agents::security {

namespace {

// The script text of a step and where it starts: run:, or the script: of
// actions/github-script (JavaScript, injectable the same way).
const Located* scriptOf(const StepModel& s) {
  if (s.run.present()) return &s.run;
  if (usesAction(s, "actions/github-script")) return s.withValue("script");
  return nullptr;
}

template <class F>
void forEachStep(const WorkflowModel& w, F&& f) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps) f(j, s);
}

bool writesActionsFile(std::string_view line) {
  return line.find("GITHUB_ENV") != std::string_view::npos || line.find("GITHUB_PATH") != std::string_view::npos;
}

}  // namespace

bool hasUntrustedExpression(std::string_view text) {
  for (std::string_view e : expressionsIn(text))
    if (!untrustedRefsIn(e).empty()) return true;
  return false;
}

std::vector<std::string> taintedEnvNames(const WorkflowModel& w, const JobModel& j, const StepModel& s) {
  std::vector<std::string> out;
  for (const LocatedMap* m : {&w.env, &j.env, &s.env})
    for (const auto& [name, value] : *m)
      if (hasUntrustedExpression(value.text)) out.push_back(name);
  return out;
}

bool mentionsVariable(std::string_view line, const std::string& name) {
  for (std::string ref : {"$" + name, "${" + name}) {
    std::size_t at = line.find(ref);
    while (at != std::string_view::npos) {
      std::size_t end = at + ref.size();
      bool whole = end == line.size() || !(std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_');
      if (whole) return true;
      at = line.find(ref, at + 1);
    }
  }
  return false;
}

void expressionInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachStep(w, [&](const JobModel&, const StepModel& s) {
    const Located* script = scriptOf(s);
    if (script == nullptr) return;
    const char* where = s.run.present() ? "`run:` script" : "`github-script` script";
    int cursor = script->line;
    for (std::string_view e : expressionsIn(script->text)) {
      int line = locate(lines, cursor, e);
      cursor = line;
      for (const std::string& ref : untrustedRefsIn(e))
        out.push_back({"security/expression-injection",
                       "`" + ref + "` is expanded into this " + where + ".", {line}});
    }
  });
}

void githubEnvInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachStep(w, [&](const JobModel& j, const StepModel& s) {
    if (!s.run.present()) return;
    std::vector<std::string> tainted = taintedEnvNames(w, j, s);
    std::vector<std::string_view> value = splitLines(s.run.text);
    std::vector<int> at = valueLineNumbers(lines, s.run.line, value);
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!writesActionsFile(value[i])) continue;
      std::string why;
      if (hasUntrustedExpression(value[i])) why = "an untrusted expression";
      for (const std::string& name : tainted)
        if (why.empty() && mentionsVariable(value[i], name)) why = "`$" + name + "`, set from an untrusted expression,";
      if (!why.empty())
        out.push_back({"security/github-env-injection", "This line writes " + why + " to `GITHUB_ENV`/`GITHUB_PATH`.", {at[i]}});
    }
  });
}

void runCurlPipeShellHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachStep(w, [&](const JobModel&, const StepModel& s) {
    if (!s.run.present()) return;
    std::vector<std::string_view> value = splitLines(s.run.text);
    std::vector<int> at = valueLineNumbers(lines, s.run.line, value);
    for (RuleHit& hit : curlPipeShellHits(value, 0)) {
      for (int& a : hit.anchors) a = at[static_cast<std::size_t>(a)];
      out.push_back(std::move(hit));
    }
  });
}

void unsecureCommandsHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  constexpr std::string_view kName = "ACTIONS_ALLOW_UNSECURE_COMMANDS";
  auto check = [&](const LocatedMap& env) {
    for (const auto& [name, value] : env)
      if (name == kName && value.text != "false")
        out.push_back({"security/unsecure-commands", "`ACTIONS_ALLOW_UNSECURE_COMMANDS` is set in `env:`.", {value.line}});
  };
  check(w.env);
  for (const JobModel& j : w.jobs) {
    check(j.env);
    for (const StepModel& s : j.steps) {
      check(s.env);
      if (!s.run.present() || s.run.text.find(std::string(kName) + "=true") == std::string::npos) continue;
      out.push_back({"security/unsecure-commands", "This step turns on `ACTIONS_ALLOW_UNSECURE_COMMANDS`.",
                     {locate(lines, s.run.line, kName)}});
    }
  }
}

}  // namespace lw::agents::security
