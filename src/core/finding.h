// What a step reports and what publication posts: a finding on a file and
// line range, or on the change as a whole (path empty).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lw {

enum class Severity { Error, Warning, Notice };

std::string_view toString(Severity s);
std::optional<Severity> parseSeverity(std::string_view s);

struct Finding {
  std::string step;    // the step that reported it
  std::string ruleId;  // "security/sql-injection"
  Severity severity = Severity::Warning;
  std::string message;                    // Markdown
  std::string path;                       // repository-relative; empty = not file-specific
  int line = 0;                           // 1-based; 0 = whole file
  int endLine = 0;                        // 0 = same as line
  std::optional<std::string> suggestion;  // replacement text for line..endLine
};

// What a triage step reports (triage.json).
struct TriageResult {
  std::string step;
  std::vector<std::string> labels;
  struct Duplicate {
    int number = 0;
    std::string reason;
  };
  std::vector<Duplicate> duplicates;
  std::optional<bool> complete;
  std::optional<bool> reproducible;
  std::string comment;  // Markdown for the sticky comment
};

}  // namespace lw
