// The agent rules for files that are not GitHub Actions workflows as such:
// GitHub Agentic Workflows (gh-aw: .github/workflows/*.md, YAML frontmatter
// between `---` lines, then the prompt in Markdown) and loopwright's own
// taskpack (.loopwright/taskpack.yaml).
#pragma once

#include <string_view>
#include <vector>

#include "agents/security/rules.h"
#include "agents/security/text.h"

namespace lw::agents::security {

// Whether a file is a gh-aw workflow: Markdown under .github/workflows/.
bool isAgenticWorkflowPath(std::string_view path);
// Whether a file is a loopwright taskpack.
bool isTaskpackPath(std::string_view path);

// The agent rules' hits on a gh-aw workflow; none when it has no frontmatter
// or its frontmatter is not YAML (gh-aw's compiler refuses such a file, and
// the compiled .lock.yml is what runs and is checked as a workflow).
std::vector<RuleHit> agenticWorkflowHits(const FileLines& lines);

// security/agent-taskpack-outbound on a taskpack: each sandbox policy (the
// spec's, or a step's merged over it field by field) that lists
// `direct-dedicated` and sets `networkMode: allow-outbound`. None when the
// file is not YAML (`loopwright validate` reports that).
std::vector<RuleHit> taskpackHits(std::string_view content);

}  // namespace lw::agents::security
