// What the agent-workflow rules (workflow_agent_rules.cpp,
// workflow_agent_mode_rules.cpp, agentic_workflow_rules.cpp) ask of a
// workflow: who can start it, what its token may write, whether a job checks
// the author, which secrets a text names, and where outside text reaches a value.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/security/text.h"
#include "agents/security/workflow/workflow_flow.h"
#include "agents/security/workflow/workflow_model.h"

namespace lw::agents::security {

// Whether `part` occurs in `s` (std::string_view::contains is C++23).
inline bool containsText(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The first trigger among `triggers` that an outsider (anyone who can open
// an issue, comment or open a pull request from a fork) can cause while the
// run holds the base repository's token and secrets, or nullptr.
const Located* outsiderTrigger(const std::vector<Located>& triggers);

// What the token may write: "`write-all`", "`contents: write`, `issues: write`"
// or "the default token (no `permissions:`)", with the line that grants it
// (0 for the default); nullopt when it is read-only. `scalar`/`scopes` are
// the job's permissions when present, else the workflow's (`fallback*`).
struct WriteGrant {
  std::string what;
  int line = 0;
};
std::optional<WriteGrant> writeGrant(const Located& scalar, const LocatedMap& scopes);
std::optional<WriteGrant> jobWriteGrant(const WorkflowModel& w, const JobModel& j);

// Whether an `if:` lets only authors associated with the repository through
// (`author_association` compared with OWNER, MEMBER or COLLABORATOR).
bool checksAuthorAssociation(const Located& condition);

// The names of the secrets a text reads in its `${{ … }}` (expression_code.h's
// secretsRead: lower case, GITHUB_TOKEN left out), computed indices aside.
std::vector<std::string> namedSecrets(std::string_view text);

// Each `${{ … }}` of `text` (a value starting on file line `startLine`)
// whose value can hold text an outsider chose, as the data-flow model reads
// it at `at` (workflow_flow.h: untrusted contexts, and env:, step and job
// outputs, callers' inputs and static matrices that carry them), with how it
// gets there ("`env.T` ← `github.event.issue.title`") and the file line of
// the expression.
void forEachOutsiderText(std::string_view text, int startLine, const FileLines& lines, const FlowScope& at,
                         const std::function<void(const std::string& via, int line)>& f);

}  // namespace lw::agents::security
