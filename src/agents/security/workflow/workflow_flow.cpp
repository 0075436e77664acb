#include "agents/security/workflow/workflow_flow.h"

#include <array>
#include <cctype>

#include "agents/security/text.h"
#include "agents/security/workflow/shell_flow.h"
#include "agents/security/workflow/untrusted_context.h"

namespace lw::agents::security {

namespace {

// Splits at `op` where it stands outside quotes and parentheses.
std::vector<std::string_view> splitTopLevel(std::string_view e, std::string_view op) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    char c = e[i];
    if (c == '\'') quoted = !quoted;  // '' inside a string toggles twice
    if (quoted) continue;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth == 0 && e.substr(i).starts_with(op)) {
      out.push_back(trim(e.substr(start, i - start)));
      start = i + op.size();
      i = start - 1;
    }
  }
  out.push_back(trim(e.substr(start)));
  return out;
}

bool hasTopLevel(std::string_view e, std::string_view op) { return splitTopLevel(e, op).size() > 1; }

// The index of the ')' that closes the '(' at `open` (outside quotes), or npos.
std::size_t closingParen(std::string_view e, std::size_t open) {
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = open; i < e.size(); ++i) {
    if (e[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    if (e[i] == '(') ++depth;
    if (e[i] == ')' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// `(…)` around the whole operand.
bool wrappedInParens(std::string_view e) { return e.starts_with("(") && closingParen(e, 0) == e.size() - 1; }

// An operand whose value is a boolean or a number whatever its inputs are:
// a comparison, a negation, or a call of a function that returns one.
bool yieldsNoText(std::string_view e) {
  for (std::string_view op : {"==", "!=", "<=", ">=", "<", ">"})
    if (hasTopLevel(e, op)) return true;
  if (e.starts_with("!")) return true;
  std::string l = lowerCase(e);
  for (std::string_view f :
       {"contains(", "startswith(", "endswith(", "success(", "failure(", "always(", "cancelled(", "hashfiles("})
    if (l.starts_with(f) && closingParen(e, f.size() - 1) == e.size() - 1) return true;
  return false;
}

struct Reference {
  std::string_view raw;  // as written
  std::string path;      // lower case, `.*` for an index that is not a string
};

// The context references of one operand, outside string literals; function
// names (a name followed by '(') are not references.
std::vector<Reference> referencesIn(std::string_view e) {
  std::vector<Reference> out;
  bool quoted = false;
  for (std::size_t i = 0; i < e.size();) {
    char c = e[i];
    if (c == '\'') quoted = !quoted;
    bool starts = !quoted && std::isalpha(static_cast<unsigned char>(c)) != 0 &&
                  (i == 0 || (!isNameChar(e[i - 1]) && e[i - 1] != '.'));
    if (!starts) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < e.size() && isNameChar(e[end])) ++end;
    std::string path = lowerCase(e.substr(i, end - i));
    if (end < e.size() && e[end] == '(') {
      i = end;
      continue;
    }
    end = readContextPath(e, end, path);
    out.push_back({e.substr(i, end - i), std::move(path)});
    i = end;
  }
  return out;
}

Taint through(const Reference& r, Taint inner) {
  std::string via = "`" + std::string(r.raw) + "`";
  if (!inner.via.empty()) via += " ← " + inner.via;
  inner.via = std::move(via);
  return inner;
}

Taint unknown(const Reference& r, std::string_view why) {
  return {Reach::Unknown, "`" + std::string(r.raw) + "` (" + std::string(why) + ")"};
}

FlowScope deeper(const FlowScope& at, const JobModel* job, const StepModel* step, bool aboveStepEnv = false) {
  return {at.workflow, job, step, at.depth + 1, aboveStepEnv};
}

const std::pair<std::string, Located>* findIn(const LocatedMap& m, std::string_view name) {
  for (const auto& kv : m)
    if (lowerCase(kv.first) == name) return &kv;
  return nullptr;
}

// env.NAME: the innermost env: that sets NAME, read where it is set.
Taint envContextTaint(const Reference& r, std::string_view name, const FlowScope& at) {
  if (at.step != nullptr && !at.aboveStepEnv)
    if (const auto* kv = findIn(at.step->env, name))
      return through(r, textTaint(kv->second.text, deeper(at, at.job, at.step, true)));
  if (at.job != nullptr)
    if (const auto* kv = findIn(at.job->env, name))
      return through(r, textTaint(kv->second.text, deeper(at, at.job, nullptr)));
  if (const auto* kv = findIn(at.workflow.env, name))
    return through(r, textTaint(kv->second.text, deeper(at, nullptr, nullptr)));
  return unknown(r, "not set in this file");
}

Taint matrixTaint(const Reference& r, std::string_view key, const FlowScope& at) {
  if (at.job == nullptr || !at.job->matrix.present()) return {};
  const MatrixModel& m = at.job->matrix;
  FlowScope job = deeper(at, at.job, nullptr);
  if (m.expression.present()) return through(r, textTaint(m.expression.text, job));
  Taint worst = textTaint(m.includeExpression.text, job);
  for (const auto& [k, v] : m.values)
    if (lowerCase(k) == key) worst = worse(worst, textTaint(v.text, job));
  return worst.reach == Reach::None ? Taint{} : through(r, worst);
}

Taint stepsTaint(const Reference& r, const std::vector<std::string_view>& p, const FlowScope& at) {
  if (p.size() < 4 || p[2] != "outputs") return {};  // outcome, conclusion: fixed words
  if (at.job == nullptr) return unknown(r, "a step of another job");
  for (const StepModel& s : at.job->steps) {
    if (&s == at.step) break;
    if (lowerCase(s.id.text) == p[1]) return through(r, stepOutputTaint(s, p[3], deeper(at, at.job, &s)));
  }
  return unknown(r, "no earlier step with that id");
}

Taint needsTaint(const Reference& r, const std::vector<std::string_view>& p, const FlowScope& at) {
  if (p.size() < 4 || p[2] != "outputs") return {};  // result: a fixed word
  for (const JobModel& j : at.workflow.jobs)
    if (lowerCase(j.id) == p[1]) {
      const auto* kv = findIn(j.outputs, p[3]);
      if (kv == nullptr) return unknown(r, "no such output");
      return through(r, textTaint(kv->second.text, deeper(at, &j, nullptr)));
    }
  return unknown(r, "no such job");
}

// inputs.NAME: outside text when a caller in the pull request passes it;
// nothing when the input is typed so that it cannot hold text; else the
// caller decides (zizmor's template-injection reports such inputs too).
Taint inputsTaint(const Reference& r, std::string_view name, const FlowScope& at) {
  if (const auto* kv = findIn(at.workflow.attackerInputs, name))
    return {Reach::Attacker, "`" + std::string(r.raw) + "` ← " + kv->second.text};
  for (const InputModel& in : at.workflow.inputs)
    if (lowerCase(in.name) == name &&
        (in.type == "boolean" || in.type == "number" || in.type == "choice" || in.type == "environment"))
      return {};
  return unknown(r, "whoever calls this sets it");
}

// github.*: an untrusted context; a branch or tag name, which whoever can
// push chose (on a fork's pull request it is the base's, on a push the
// pusher's: `refs/heads/$(id)` is a valid ref) or a workflow_dispatch
// input, which the model cannot tell; else fixed.
Taint githubTaint(const Reference& r) {
  if (isUntrustedContext(r.path)) return {Reach::Attacker, "`" + std::string(r.raw) + "`"};
  static constexpr std::array kPushedNames = {"github.ref", "github.ref_name", "github.base_ref", "github.event.ref",
                                              "github.event.base_ref"};
  for (std::string_view name : kPushedNames)
    if (r.path == name) return unknown(r, "a branch or tag name whoever pushed it chose");
  // What a workflow_dispatch's caller passes (repository_dispatch's
  // client_payload is an untrusted context, above).
  if (r.path.starts_with("github.event.inputs")) return unknown(r, "set by whoever dispatched the run");
  return {};
}

Taint referenceTaint(const Reference& r, const FlowScope& at) {
  if (at.depth > kMaxDepth) return unknown(r, "followed too deep");
  std::vector<std::string_view> p = pathSegments(r.path);
  std::string_view root = p.front();
  if (root == "github") return githubTaint(r);
  if (p.size() < 2) return {};
  if (root == "env") return envContextTaint(r, p[1], at);
  if (root == "matrix") return matrixTaint(r, p[1], at);
  if (root == "steps") return stepsTaint(r, p, at);
  if (root == "needs") return needsTaint(r, p, at);
  if (root == "inputs") return inputsTaint(r, p[1], at);
  return {};  // secrets, vars, runner, job, strategy: not an outsider's text
}

// The operands whose value the expression can be: `a || b` is a or b;
// `a && b` is b, or a when a is falsy (false, 0, '', null: no text); `(x)`
// is x.
void valueOperands(std::string_view e, std::vector<std::string_view>& out) {
  for (std::string_view either : splitTopLevel(e, "||")) {
    std::string_view last = splitTopLevel(either, "&&").back();
    if (wrappedInParens(last))
      valueOperands(trim(last.substr(1, last.size() - 2)), out);
    else
      out.push_back(last);
  }
}

// `(a || b).number`: the references the group's value can be, each with the
// path after the group appended (`a.number`, `b.number`); empty when the
// operand is not such a group.
std::vector<Reference> groupMemberReferences(std::string_view operand) {
  if (!operand.starts_with("(")) return {};
  std::size_t close = closingParen(operand, 0);
  if (close == std::string_view::npos || close + 1 >= operand.size()) return {};
  std::string suffix;
  if (readContextPath(operand, close + 1, suffix) != operand.size() || suffix.empty()) return {};
  std::vector<std::string_view> inner;
  valueOperands(trim(operand.substr(1, close - 1)), inner);
  std::vector<Reference> out;
  for (std::string_view member : inner)
    for (Reference& r : referencesIn(member))
      if (r.raw.size() == member.size()) out.push_back({operand, r.path + suffix});
  return out;
}

// The values one operand can take: a string literal's text, or the values
// the static matrix lists for `matrix.KEY`; none when it is anything else.
std::vector<Located> operandValues(std::string_view operand, const JobModel& job, int line) {
  if (operand.size() >= 2 && operand.front() == '\'' && operand.back() == '\'') {
    std::string text(operand.substr(1, operand.size() - 2));
    for (std::size_t at = text.find("''"); at != std::string::npos; at = text.find("''", at + 1)) text.erase(at, 1);
    return {{std::move(text), line}};
  }
  std::vector<Reference> refs = referencesIn(operand);
  if (refs.size() != 1 || refs.front().raw.size() != operand.size() || !job.matrix.present() ||
      job.matrix.expression.present() || job.matrix.includeExpression.present())
    return {};
  std::vector<std::string_view> p = pathSegments(refs.front().path);
  if (p.size() != 2 || p[0] != "matrix") return {};
  std::vector<Located> out;
  for (const auto& [k, v] : job.matrix.values)
    if (lowerCase(k) == p[1]) out.push_back({v.text, line});
  return out;
}

}  // namespace

const Taint& worse(const Taint& a, const Taint& b) { return b.reach > a.reach ? b : a; }

std::vector<Taint> expressionTaints(std::string_view expression, const FlowScope& at) {
  std::vector<std::string_view> operands;
  valueOperands(expressionBody(expression), operands);
  std::vector<Taint> out;
  for (std::string_view operand : operands) {
    if (yieldsNoText(operand)) continue;
    std::vector<Reference> refs = groupMemberReferences(operand);
    if (refs.empty()) refs = referencesIn(operand);
    for (const Reference& r : refs) {
      Taint t = referenceTaint(r, at);
      if (t.reach != Reach::None) out.push_back(std::move(t));
    }
  }
  return out;
}

Taint textTaint(std::string_view text, const FlowScope& at) {
  Taint worst;
  for (std::string_view e : expressionsIn(text))
    for (const Taint& t : expressionTaints(e, at)) worst = worse(worst, t);
  return worst;
}

std::vector<Located> possibleValues(const Located& value, const JobModel& job) {
  std::string_view e = trim(value.text);
  std::vector<std::string_view> all = expressionsIn(e);
  if (all.size() != 1 || all.front().size() != e.size()) return {value};
  std::vector<std::string_view> operands;
  valueOperands(expressionBody(e), operands);
  std::vector<Located> out;
  for (std::string_view operand : operands) {
    std::vector<Located> known = operandValues(operand, job, value.line);
    if (known.empty()) return {value};  // one alternative is not known: the rules cannot read it
    out.insert(out.end(), known.begin(), known.end());
  }
  return out;
}

Taint environmentVariableTaint(std::string_view name, const FlowScope& at) {
  // Each env: is read where it is set: a step's sees the job's steps, a job's no step.
  const std::pair<const LocatedMap*, FlowScope> levels[] = {
      {at.step ? &at.step->env : nullptr, deeper(at, at.job, at.step, true)},
      {at.job ? &at.job->env : nullptr, deeper(at, at.job, nullptr)},
      {&at.workflow.env, deeper(at, nullptr, nullptr)}};
  for (const auto& [env, where] : levels) {
    if (env == nullptr) continue;
    for (const auto& [k, v] : *env)
      if (k == name) {
        Taint t = textTaint(v.text, where);
        if (t.reach != Reach::None) t.via = "`$" + std::string(name) + "` ← " + t.via;
        return t;
      }
  }
  // The runner's own variables: GITHUB_HEAD_REF is the pull request's branch name.
  if (name == "GITHUB_HEAD_REF") return {Reach::Attacker, "`$GITHUB_HEAD_REF` (the pull request's branch name)"};
  if (name == "GITHUB_REF" || name == "GITHUB_REF_NAME" || name == "GITHUB_BASE_REF")
    return {Reach::Unknown, "`$" + std::string(name) + "` (a branch or tag name whoever pushed it chose)"};
  static constexpr std::array kRunner = {"HOME",   "PATH",   "PWD",      "CI",     "USER", "SHELL",  "TEMP", "TMPDIR",
                                         "RANDOM", "LINENO", "HOSTNAME", "OSTYPE", "IFS",  "OLDPWD", "UID",  "EUID"};
  if (name.starts_with("GITHUB_") || name.starts_with("RUNNER_") || name.starts_with("ACTIONS_")) return {};
  for (std::string_view v : kRunner)
    if (name == v) return {};
  return {Reach::Unknown, "`$" + std::string(name) + "` (set outside this step)"};
}

}  // namespace lw::agents::security
