// Rules on what a step's script text does: expressions expanded into it,
// writes to GITHUB_ENV / GITHUB_PATH, downloads piped to a shell, and the
// runner switches set in env: (unsecure workflow commands, debug logging).
#include <cctype>
#include <string>

#include "agents/security/file_rules/shell_rules.h"
#include "agents/security/text.h"
#include "agents/security/workflow/action_catalogue.h"
#include "agents/security/workflow/shell_flow.h"
#include "agents/security/workflow/untrusted_context.h"
#include "agents/security/workflow/workflow_flow.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

template <class F>
void forEachStep(const WorkflowModel& w, F&& f) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps) f(j, s);
}

// A script the step runs, and what to call it in a finding.
struct CodeSink {
  const Located* text;
  std::string name;
};

// The step's text that runs as code: its `run:`, or the inputs its action
// executes (action_catalogue.h: github-script's `script`, yq's `cmd`, …).
std::vector<CodeSink> codeSinks(const StepModel& s) {
  if (s.run.present()) return {{&s.run, "`run:` script"}};
  std::vector<CodeSink> out;
  std::string action = s.uses.text.substr(0, s.uses.text.find('@'));
  for (const Located* input : codeExecutingInputs(s))
    for (const auto& [key, value] : s.with)
      if (&value == input) out.push_back({input, "`" + key + "` of `" + action + "`, which runs it as code,"});
  return out;
}

// The runner reads the variable with .NET's bool.TryParse
// (actions/runner, src/Runner.Worker/ActionCommandManager.cs): "true" in
// any case, spaces around it allowed; `yes`, `1` or `on` leave it off. An
// expression may evaluate to "true".
bool turnsOnUnsecureCommands(std::string_view value) {
  return lowerCase(trim(value)) == "true" || value.find("${{") != std::string_view::npos;
}

// Each env: entry of the workflow, its jobs and their steps.
template <class F>
void forEachEnv(const WorkflowModel& w, F&& f) {
  for (const auto& [name, value] : w.env) f(name, value);
  for (const JobModel& j : w.jobs) {
    for (const auto& [name, value] : j.env) f(name, value);
    for (const StepModel& s : j.steps)
      for (const auto& [name, value] : s.env) f(name, value);
  }
}

}  // namespace

void expressionInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachStep(w, [&](const JobModel& j, const StepModel& s) {
    FlowScope at{w, &j, &s};
    for (const CodeSink& sink : codeSinks(s)) {
      int cursor = sink.text->line;
      for (std::string_view e : expressionsIn(sink.text->text)) {
        int line = locate(lines, cursor, e);
        cursor = line;
        for (const Taint& t : expressionTaints(e, at)) {
          bool attacker = t.reach == Reach::Attacker;
          out.push_back({attacker ? "security/expression-injection" : "security/untraced-expression",
                         t.via +
                             (attacker ? " is expanded into this "
                                       : ", whose value this workflow does not fix, is expanded into this ") +
                             sink.name + ".",
                         {line}});
        }
      }
    }
  });
}

// A write of outside text; on a privileged event or in an action (whose
// callers may be privileged), also a write of text the model cannot trace,
// as zizmor's github-env audit reports it.
void githubEnvInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  bool exposed = w.isAction || isPrivileged(w);
  forEachStep(w, [&](const JobModel& j, const StepModel& s) {
    std::vector<ScriptWrite> writes = scriptWrites(s, {w, &j, &s});
    if (writes.empty()) return;
    std::vector<int> at = valueLineNumbers(lines, s.run.line, splitLines(s.run.text));
    for (const ScriptWrite& write : writes) {
      if (write.file == "GITHUB_OUTPUT") continue;
      bool report = write.taint.reach == Reach::Attacker || (exposed && write.taint.reach == Reach::Unknown);
      if (report)
        out.push_back({"security/github-env-injection",
                       "This line writes " + write.taint.via + " to `" + write.file + "`.",
                       {at[write.line]}});
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
  forEachEnv(w, [&](const std::string& name, const Located& value) {
    if (name == kName && turnsOnUnsecureCommands(value.text))
      out.push_back(
          {"security/unsecure-commands", "`ACTIONS_ALLOW_UNSECURE_COMMANDS` is set in `env:`.", {value.line}});
  });
  for (const JobModel& j : w.jobs) {
    for (const StepModel& s : j.steps) {
      if (!s.run.present() || s.run.text.find(std::string(kName) + "=true") == std::string::npos) continue;
      out.push_back({"security/unsecure-commands",
                     "This step turns on `ACTIONS_ALLOW_UNSECURE_COMMANDS`.",
                     {locate(lines, s.run.line, kName)}});
    }
  }
}

// The runner reads these as variables too (docs.github.com, "Enabling debug
// logging"): set in a workflow's env:, they turn on its debug log for
// everyone who can read the run's logs; poutine's debug_enabled reads `true`
// in any case.
void debugLoggingHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  forEachEnv(w, [&](const std::string& name, const Located& value) {
    if ((name == "ACTIONS_STEP_DEBUG" || name == "ACTIONS_RUNNER_DEBUG") && lowerCase(trim(value.text)) == "true")
      out.push_back({"security/debug-logging", "`" + name + ": true` turns on the runner's debug log.", {value.line}});
  });
}

}  // namespace lw::agents::security
