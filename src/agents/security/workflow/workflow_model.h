// A GitHub Actions workflow (.github/workflows/*.yml) or action metadata
// file (action.yml) reduced to what the security rules look at, each value
// with the 1-based line it starts on (yaml-cpp's Mark; for a block scalar,
// the line of its `|` or `>`).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace lw::agents::security {

struct Located {
  std::string text;
  int line = 0;  // 0: absent
  bool present() const { return line > 0; }
};

using LocatedMap = std::vector<std::pair<std::string, Located>>;  // key -> value (line of the key)

struct StepModel {
  int line = 0;
  Located uses, run, ifCond;
  LocatedMap with, env;
  const Located* withValue(std::string_view key) const;
  Located id;         // `id:`, which steps.<id>.outputs names
  Located shell;      // `shell:`; absent: bash (or pwsh on Windows), as GitHub picks
  Located withBlock;  // with: itself: "{}" for a mapping, the text of a scalar (an expression)
};

// A job's `strategy.matrix`, as written: each key's values from its list and
// from the `include:` entries, in file order. A list or an `include:` written
// as an expression (`${{ fromJSON(…) }}`) is kept as that one expression;
// `exclude:` entries with a single key drop that value from the key's list
// (what GitHub does when no `include:` adds it back).
struct MatrixModel {
  int line = 0;               // 0: the job has no matrix
  Located expression;         // the whole matrix is `${{ … }}`
  Located includeExpression;  // `include: ${{ … }}`
  LocatedMap values;          // key -> one value each (several per key), "{}" for a mapping
  bool present() const { return line > 0; }
};

// An input a workflow (`on.workflow_call` / `on.workflow_dispatch`) or an
// action (`inputs:`) declares; type empty when it declares none.
struct InputModel {
  std::string name;
  std::string type;  // "string", "boolean", "number", "choice", "environment"
  int line = 0;
};

struct JobModel {
  std::string id;
  int line = 0;
  Located permissions;  // scalar form ("write-all"), or "{}" with the line of a mapping
  std::vector<Located> runsOn;
  Located uses;     // a reusable workflow
  Located secrets;  // "inherit", or "{}" for a mapping
  Located ifCond;
  std::vector<Located> images;  // container: and services: images
  LocatedMap env;
  std::vector<StepModel> steps;
  MatrixModel matrix;
  LocatedMap outputs;           // `outputs:`, read through needs.<job>.outputs
  LocatedMap with;              // the inputs passed to a reusable workflow (`uses:`)
  Located runnerGroup;          // `runs-on: {group: …}`
  LocatedMap permissionScopes;  // the mapping form of permissions: (scope -> level)
  Located concurrency;          // scalar form (a group name), or "{}" for a mapping
  Located cancelInProgress;     // concurrency.cancel-in-progress
  // credentials.password of container: and of each service, where present.
  std::vector<Located> registryPasswords;
  Located environment;   // environment: (its name, or "{}" for a mapping)
  Located defaultShell;  // defaults.run.shell
  Located runsOnWhole;   // runs-on: itself: a label, "{}" for a mapping (a runner group), "[]" for a list
};

struct WorkflowModel {
  bool isAction = false;          // action.yml: its runs.steps are the one job
  std::vector<Located> triggers;  // event names, each on its line
  bool pushesTags = false;        // on.push.tags
  Located permissions;
  LocatedMap env;
  std::vector<JobModel> jobs;
  Located actionImage;  // runs.image of a Docker action
  std::vector<InputModel> inputs;
  std::vector<std::string> pushBranches;  // on.push.branches
  // Inputs a caller in the same pull request passes outside text to (name,
  // and what carries it), filled by the scanner before the rules run; empty
  // when no caller of this file is in the pull request.
  LocatedMap attackerInputs;
  LocatedMap permissionScopes;  // the mapping form of permissions:
  Located concurrency;          // as JobModel's
  Located cancelInProgress;
  int onLine = 0;        // the line of the `on:` key
  Located defaultShell;  // defaults.run.shell

  bool hasTrigger(std::string_view event) const;
  int firstTriggerLine() const;
};

// The model, or OUTPUT_INVALID when the text cannot be read as a workflow:
// the YAML does not parse (policy/yaml/yaml_document.h: syntax, nesting, a second
// document, empty) or its top is not a mapping. The error's message is what
// the parser said and its location the 1-based line and column it named
// (0 when it named none). The line rules still run on such a file, the
// workflow rules cannot.
Result<WorkflowModel> parseWorkflow(std::string_view content, bool isAction);

// `uses: actions/checkout@v4` is "actions/checkout" (owner/repo, lower case).
bool usesAction(const StepModel& s, std::string_view ownerRepo);

}  // namespace lw::agents::security
