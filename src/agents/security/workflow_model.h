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
  LocatedMap permissionScopes;  // `permissions:` as a mapping: scope -> level (empty for a scalar)
};

struct WorkflowModel {
  bool isAction = false;          // action.yml: its runs.steps are the one job
  std::vector<Located> triggers;  // event names, each on its line
  bool pushesTags = false;        // on.push.tags
  Located permissions;
  LocatedMap env;
  std::vector<JobModel> jobs;
  Located actionImage;          // runs.image of a Docker action
  LocatedMap permissionScopes;  // the workflow's `permissions:` as a mapping, as for a job

  bool hasTrigger(std::string_view event) const;
  int firstTriggerLine() const;
};

// The model, or OUTPUT_INVALID when the text cannot be read as a workflow:
// the YAML does not parse (policy/yaml_document.h: syntax, nesting, a second
// document, empty) or its top is not a mapping. The error's message is what
// the parser said and its location the 1-based line and column it named
// (0 when it named none). The line rules still run on such a file, the
// workflow rules cannot.
Result<WorkflowModel> parseWorkflow(std::string_view content, bool isAction);

}  // namespace lw::agents::security
