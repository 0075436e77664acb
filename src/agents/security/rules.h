// The security rules as data: a stable id, a severity and the advice each
// finding carries (why it matters, how to fix it). docs/security-rules.md
// is the same table for people; a test keeps the two in step.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace lw::agents::security {

struct RuleInfo {
  std::string_view id;  // "security/expression-injection"
  Severity severity;
  std::string_view advice;  // Markdown: why, then how to fix
};

const std::vector<RuleInfo>& allRules();
// nullptr for an unknown id.
const RuleInfo* findRule(std::string_view id);

// What a rule found before line filtering: `detail` says what was seen
// where; `anchors` are the lines it may be reported on, best first (the
// risky line itself, then the lines that make it risky, such as the
// trigger). The finding goes on the first anchor the pull request added,
// and is dropped when it added none of them.
struct RuleHit {
  std::string_view ruleId;
  std::string detail;
  std::vector<int> anchors;
};

// The finding for `hit` on `line` of `path`: the rule's severity, and the
// detail followed by the rule's advice.
Finding toFinding(const RuleHit& hit, const std::string& path, int line);

}  // namespace lw::agents::security
