// The security rules as data: a stable id, a severity and the advice each
// finding carries (why it matters, how to fix it). docs/security-rules.md
// is the same table for people; a test keeps the two in step.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace lw::agents::security {

// How sure a rule is that what it matched is the risk it names: high when
// the shape is the flaw itself, medium when context it cannot see (what a
// secret holds, what a tool does) may make it harmless, low when it is a
// heuristic a person has to judge.
enum class Confidence { High, Medium, Low };

// Who a rule is for, as zizmor's personas: `default` reports flaws;
// `pedantic` adds hygiene and style a careful maintainer fixes (no direct
// impact); `auditor` adds what only a security review weighs (noisy).
// Each persona reports its own rules and those of the personas before it.
enum class Persona { Default, Pedantic, Auditor };

std::string_view toString(Confidence c);
std::string_view toString(Persona p);
std::optional<Persona> parsePersona(std::string_view s);

struct RuleInfo {
  std::string_view id;  // "security/expression-injection"
  Severity severity;
  std::string_view advice;  // Markdown: why, then how to fix
  Confidence confidence = Confidence::High;
  Persona persona = Persona::Default;
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
// detail with the rule's confidence, followed by the rule's advice.
Finding toFinding(const RuleHit& hit, const std::string& path, int line);

}  // namespace lw::agents::security
