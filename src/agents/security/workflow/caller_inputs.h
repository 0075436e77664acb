// Which inputs of the pull request's own reusable workflows and local
// actions its callers pass text an outsider chose to: a job's
// `uses: ./.github/workflows/x.yml` or a step's `uses: ./path` with a
// `with:` value that carries such text (workflow_flow.h). The callee's
// `${{ inputs.NAME }}` then carries it too. Only callers in the pull
// request's changed files are seen; a callee none of them calls keeps its
// inputs Unknown (security/untraced-expression).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "agents/security/changed_file.h"
#include "agents/security/workflow/workflow_model.h"

namespace lw::agents::security {

// Callee -> (input name -> what carries outside text to it, with the
// caller's path and line). A callee is named as calleeKey names it.
using CallerInputs = std::map<std::string, LocatedMap>;

CallerInputs callerInputsOf(const std::vector<ChangedFile>& files);

// The key of the file at `path` as a callee: the workflow's path, or an
// action's directory ("" for the repository's root).
std::string calleeKey(std::string_view path, bool isAction);

}  // namespace lw::agents::security
