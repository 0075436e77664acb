// security/obfuscation: `uses:` paths and expressions written so that they
// read as something else or defeat pattern matching (the other rules'
// included): `actions/checkout/./@v4`, `owner/repo/../x@v1`, constant
// expressions (`${{ 'a' }}`, `format('{0}', 'run')`), `with:` as one
// expression. After zizmor's obfuscation audit.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "agents/security/workflow/expression_code.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

constexpr std::string_view kRule = "security/obfuscation";

// What a `uses:` path hides: "." or ".." or an empty component after
// owner/repo. Empty when nothing; local (./) and docker:// uses are paths,
// not references, and are left alone.
std::string obfuscatedUses(std::string_view uses) {
  if (uses.starts_with("./") || uses.starts_with("docker://")) return {};
  std::string_view path = uses.substr(0, uses.find('@'));
  std::size_t owner = path.find('/');
  std::size_t repo = owner == std::string_view::npos ? owner : path.find('/', owner + 1);
  if (repo == std::string_view::npos) return {};
  std::string_view rest = path.substr(repo + 1);
  for (std::size_t start = 0;;) {
    std::size_t end = rest.find('/', start);
    std::string_view component = rest.substr(start, end == std::string_view::npos ? end : end - start);
    if (component == "." || component == "..") return "a `" + std::string(component) + "` component";
    if (component.empty()) return "an empty component";
    if (end == std::string_view::npos) return {};
    start = end + 1;
  }
}

// A parse of expressionCode's output that says which parts GitHub could
// evaluate without any context: `count` is how many such parts (calls and
// operators over constants only) the expression holds, as zizmor counts them.
struct Shape {
  bool constant = false;
  bool literal = false;
  int count = 0;
};

class ConstantFinder {
 public:
  explicit ConstantFinder(std::string_view code) : s_(code) {}

  // Whether the whole expression, or a part of it, is a constant; false
  // for what does not parse.
  bool obfuscated() {
    Shape root = orExpr();
    if (failed_ || i_ != s_.size()) return false;
    return root.constant || root.count > 0;
  }

 private:
  static Shape combined(Shape a, Shape b) {
    Shape out{a.constant && b.constant, false, 0};
    out.count = out.constant ? 1 : a.count + b.count;
    return out;
  }

  bool eat(std::string_view token) {
    if (s_.substr(i_, token.size()) != token) return false;
    i_ += token.size();
    return true;
  }

  Shape orExpr() {
    Shape a = andExpr();
    while (!failed_ && eat("||")) a = combined(a, andExpr());
    return a;
  }
  Shape andExpr() {
    Shape a = comparison();
    while (!failed_ && eat("&&")) a = combined(a, comparison());
    return a;
  }
  Shape comparison() {
    Shape a = unary();
    while (!failed_ && (eat("==") || eat("!=") || eat("<=") || eat(">=") || eat("<") || eat(">")))
      a = combined(a, unary());
    return a;
  }
  Shape unary() {
    if (!eat("!")) return postfix();
    Shape inner = unary();
    Shape out{inner.constant, false, 0};
    out.count = out.constant ? 1 : inner.count;
    return out;
  }
  Shape postfix() {
    Shape a = primary();
    while (!failed_) {
      if (eat(".*") || (eat(".") && !name().empty())) {
        a.constant = a.literal = false;
      } else if (eat("[")) {
        Shape index = orExpr();
        if (!eat("]")) failed_ = true;
        a = Shape{false, false, a.count + index.count};
      } else {
        break;
      }
    }
    return a;
  }
  Shape primary() {
    if (eat("''")) return {true, true, 0};
    if (eat("(")) {
      Shape a = orExpr();
      if (!eat(")")) failed_ = true;
      return a;
    }
    if (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) != 0 || s_[i_] == '-')) {
      ++i_;
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) != 0 || s_[i_] == '.')) ++i_;
      return {true, true, 0};
    }
    std::string_view id = name();
    if (id.empty()) {
      failed_ = true;
      return {};
    }
    if (id == "true" || id == "false" || id == "null") return {true, true, 0};
    if (eat("(")) return call(id);
    return {};  // a context
  }
  Shape call(std::string_view function) {
    static constexpr std::array kPure = {"contains", "startswith", "endswith", "format", "tojson", "join"};
    bool pure = std::find(kPure.begin(), kPure.end(), function) != kPure.end();
    bool allConstant = true;
    int count = 0;
    while (!failed_ && !eat(")")) {
      Shape arg = orExpr();
      allConstant = allConstant && arg.constant;
      count += arg.count;
      if (!eat(",") && s_.substr(i_, 1) != ")") failed_ = true;
    }
    bool constant = pure && allConstant;
    return {constant, false, constant ? 1 : count};
  }
  std::string_view name() {
    std::size_t start = i_;
    while (i_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[i_])) != 0 || s_[i_] == '_' || (s_[i_] == '-' && i_ > start)))
      ++i_;
    return s_.substr(start, i_ - start);
  }

  std::string_view s_;
  std::size_t i_ = 0;
  bool failed_ = false;
};

}  // namespace

void obfuscationHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps) {
      std::string what = s.uses.present() ? obfuscatedUses(s.uses.text) : std::string();
      if (!what.empty())
        out.push_back({kRule, "`uses: " + s.uses.text + "` has " + what + " in its path.", {s.uses.line}});
      if (s.uses.present() && s.withBlock.present() && s.withBlock.text != "{}")
        out.push_back({kRule,
                       "`with:` is one expression: what the action is given cannot be read here.",
                       {s.withBlock.line, s.uses.line}});
    }
  for (const FileExpression& e : fileExpressions(lines))
    if (ConstantFinder(expressionCode(e.text)).obfuscated())
      out.push_back(
          {kRule, "`" + std::string(e.text) + "` is, or holds, a constant written as an expression.", {e.line}});
}

}  // namespace lw::agents::security
