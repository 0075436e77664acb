// Rules on expressions that do not test what they seem to: an `if:` that is
// a string (always true), contains() used as a membership test on a string
// an outsider can shape, and `a && '' || b` read as a ternary.
#include <array>
#include <string>

#include "agents/security/workflow/expression_code.h"
#include "agents/security/workflow/untrusted_context.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

template <class F>
void forEachCondition(const WorkflowModel& w, F&& f) {
  for (const JobModel& j : w.jobs) {
    if (j.ifCond.present()) f(j.ifCond);
    for (const StepModel& s : j.steps)
      if (s.ifCond.present()) f(s.ifCond);
  }
}

// Whether the `if:` on file line `line` is a `|` or `>` block that keeps its
// final newline (no `-` indicator). Read from the file: yaml-cpp drops that
// newline when the block ends the file, GitHub does not.
bool blockKeepsNewline(const FileLines& lines, int line) {
  if (line < 1 || line > static_cast<int>(lines.size())) return false;
  std::string_view l = lines[static_cast<std::size_t>(line - 1)];
  std::size_t key = l.find("if:");
  if (key == std::string_view::npos) return false;
  std::string_view indicator = trim(l.substr(key + 3));
  indicator = indicator.substr(0, indicator.find(' '));
  return (indicator.starts_with("|") || indicator.starts_with(">")) && indicator.find('-') == std::string_view::npos;
}

// GitHub evaluates `if:` as an expression only when the value is bare code or
// exactly one `${{ … }}`; with anything around the `${{ … }}` (text, a second
// expression, the newline a `|` or `>` block keeps) the value is a string
// template, and a non-empty string is true.
bool alwaysTrue(const Located& condition, const FileLines& lines) {
  std::vector<std::string_view> expressions = expressionsIn(condition.text);
  if (expressions.empty()) return false;
  if (blockKeepsNewline(lines, condition.line)) return true;
  return !(expressions.size() == 1 && expressions.front().size() == condition.text.size());
}

// Contexts whose value the person who triggers the run chooses (branch and
// tag names, actors, inputs, environment variables), after zizmor's
// unsound-contains audit.
constexpr std::array kSettableContexts = {"env",        "github.actor",    "github.base_ref", "github.head_ref",
                                          "github.ref", "github.ref_name", "github.sha",      "github.triggering_actor",
                                          "inputs"};

bool settable(std::string_view context) {
  for (std::string_view c : kSettableContexts)
    if (context == c || (context.starts_with(c) && (context[c.size()] == '.' || context[c.size()] == '['))) return true;
  return false;
}

bool isContextChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' || c == '*' || c == '[' ||
         c == ']' || c == '\'';
}

// The contexts tested with contains('literal', context) in `code`.
std::vector<std::string> containsOnLiteral(std::string_view code) {
  constexpr std::string_view kCall = "contains('',";
  std::vector<std::string> out;
  for (std::size_t at = code.find(kCall); at != std::string_view::npos; at = code.find(kCall, at + 1)) {
    if (!startsName(code, at)) continue;
    std::size_t start = at + kCall.size(), end = start;
    while (end < code.size() && isContextChar(code[end])) ++end;
    bool bareContext = end > start && end < code.size() && code[end] == ')' &&
                       std::isalpha(static_cast<unsigned char>(code[start])) != 0;
    if (bareContext) out.emplace_back(code.substr(start, end - start));
  }
  return out;
}

// `cond && <falsy> || fallback`: GitHub has no ternary, and this one gives
// the fallback exactly when the condition holds, the falsy value never.
bool falsyTernary(std::string_view code) {
  for (std::string_view falsy : {"''", "0", "false", "null"}) {
    std::string pattern = "&&" + std::string(falsy) + "||";
    if (code.find(pattern) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

void unsoundTernaryHits(const FileLines& lines, std::vector<RuleHit>& out) {
  for (const FileExpression& e : fileExpressions(lines))
    if (falsyTernary(expressionCode(e.text, true)))
      out.push_back({"security/unsound-ternary",
                     "`" + std::string(e.text) +
                         "` reads as a ternary whose true value is falsy: it always gives "
                         "the fallback.",
                     {e.line}});
}

void unsoundConditionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachCondition(w, [&](const Located& condition) {
    if (alwaysTrue(condition, lines))
      out.push_back({"security/unsound-condition",
                     "This `if:` is text around `${{ … }}`, not one expression: it is a non-empty string, always "
                     "true.",
                     {condition.line}});
  });
}

void unsoundContainsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  forEachCondition(w, [&](const Located& condition) {
    for (const std::string& context : containsOnLiteral(expressionCode(condition.text)))
      out.push_back({"security/unsound-contains",
                     "`contains()` tests `" + context + "` as a substring of a string literal" +
                         (settable(context) ? ", and whoever triggers the run chooses its value" : "") + ".",
                     {condition.line}});
  });
}

}  // namespace lw::agents::security
