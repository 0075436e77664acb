// What a value in a workflow can hold: the one question the injection rules
// ask ("can text an outsider chose reach here?"), answered from the model
// alone (pure: the model in, facts out). It follows, from a `${{ … }}`:
//   github.*                  the untrusted contexts (untrusted_context.h)
//   env.NAME                  the step's, then the job's, then the workflow's env:
//   matrix.KEY                the job's static matrix, every value it lists
//                             (`include:` too); a matrix from `fromJSON(…)` is
//                             what its argument is
//   steps.ID.outputs.NAME     what step ID writes to $GITHUB_OUTPUT (shell_flow.h),
//                             or a catalogued action's output (action_catalogue.h)
//   needs.JOB.outputs.NAME    that job's `outputs:` value
//   inputs.NAME               what a caller in the same pull request passes
//                             (WorkflowModel::attackerInputs); a typed input
//                             (boolean, number, choice) holds no text
// Limits (docs/security-rules.md, "What the rules follow"): functions are
// not evaluated except that a comparison, `!`, contains/startsWith/endsWith
// yield a boolean; nested matrix objects are not opened; references are
// followed at most kMaxDepth deep.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/security/workflow/workflow_model.h"

namespace lw::agents::security {

// None: fixed or trusted text. Unknown: the model cannot tell (an action's
// output, an input no caller in the pull request sets, an env var set
// elsewhere). Attacker: text an outsider chose can reach the value.
enum class Reach { None, Unknown, Attacker };

struct Taint {
  Reach reach = Reach::None;
  // How it gets there, from the reference read to the source:
  // "`env.TITLE` ← `github.event.issue.title`".
  std::string via;
};

// The more dangerous of the two (the first when equal).
const Taint& worse(const Taint& a, const Taint& b);

// Where a value is read: the workflow, and the job and step it is in
// (null where it is read above them, e.g. in a job's `outputs:`).
struct FlowScope {
  const WorkflowModel& workflow;
  const JobModel* job = nullptr;
  const StepModel* step = nullptr;
  int depth = 0;  // references followed so far
  // Reading a value of the step's own env:, whose `env.` is the job's and
  // the workflow's, not the step's.
  bool aboveStepEnv = false;
};

constexpr int kMaxDepth = 8;

// One Taint per reference of one `${{ … }}` whose reach is not None.
std::vector<Taint> expressionTaints(std::string_view expression, const FlowScope& at);
// The worst of every `${{ … }}` in `text` (None for literal text).
Taint textTaint(std::string_view text, const FlowScope& at);

// The values a `runs-on:` label or an image written as one `${{ … }}` can
// take, each on `value`'s line: for each alternative (`a || b`, `c && d`),
// a string literal's text or the static matrix's values for `matrix.KEY`.
// `value` itself when it is literal text, or when an alternative is anything
// else (an input, an output: the rules cannot read it).
std::vector<Located> possibleValues(const Located& value, const JobModel& job);

// What the shell variable NAME holds when a step's script starts: its env:
// (step, job, workflow), the runner's own variables, else Unknown.
Taint environmentVariableTaint(std::string_view name, const FlowScope& at);

}  // namespace lw::agents::security
