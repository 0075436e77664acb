#include "agents/security/workflow/untrusted_context.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "agents/security/text.h"

namespace lw::agents::security {

namespace {

// Paths below `github`, '*' for any one segment. Sources: GitHub's "Security
// hardening for GitHub Actions" (untrusted input) and zizmor's list of
// attacker-controllable contexts.
constexpr std::array kUntrusted = {
    "github.head_ref",
    "github.event.issue.title",
    "github.event.issue.body",
    "github.event.issue.labels.*.name",
    "github.event.pull_request.title",
    "github.event.pull_request.body",
    "github.event.pull_request.head.ref",
    "github.event.pull_request.head.label",
    "github.event.pull_request.head.repo.default_branch",
    "github.event.pull_request.head.repo.description",
    "github.event.pull_request.labels.*.name",
    "github.event.label.name",
    "github.event.comment.body",
    "github.event.review.body",
    "github.event.review_comment.body",
    "github.event.discussion.title",
    "github.event.discussion.body",
    "github.event.pages.*.page_name",
    "github.event.commits.*.message",
    "github.event.commits.*.author.name",
    "github.event.commits.*.author.email",
    "github.event.commits.*.committer.name",
    "github.event.commits.*.committer.email",
    "github.event.head_commit.message",
    "github.event.head_commit.author.name",
    "github.event.head_commit.author.email",
    "github.event.head_commit.committer.name",
    "github.event.head_commit.committer.email",
    "github.event.workflow_run.head_branch",
    "github.event.workflow_run.display_title",
    "github.event.workflow_run.head_commit.message",
    "github.event.workflow_run.head_commit.author.name",
    "github.event.workflow_run.head_commit.author.email",
    "github.event.workflow_run.pull_requests.*.head.ref",
    "github.event.check_suite.head_branch",
    "github.event.check_run.check_suite.head_branch",
    // repository_dispatch: whatever the caller of the API sent, at any depth
    // (poutine's injection rule and zizmor's context list agree).
    "github.event.client_payload.**",
};

// 1: the path is the pattern; 2: the path is an object above it; 0: neither.
// A pattern ending in `**` is every path below its prefix.
int compare(const std::vector<std::string_view>& path, std::string_view pattern) {
  std::vector<std::string_view> pat = pathSegments(pattern);
  if (pat.back() == "**") {
    pat.pop_back();
    if (path.size() > pat.size()) pat.resize(path.size(), "*");
  }
  if (path.size() > pat.size()) return 0;
  for (std::size_t i = 0; i < path.size(); ++i)
    if (pat[i] != "*" && path[i] != "*" && pat[i] != path[i]) return 0;
  return path.size() == pat.size() ? 1 : 2;
}

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Each `(` of the expression with its matching `)`, outside string literals
// ('…', with '' for a quote inside); unbalanced ones are left out.
std::vector<std::pair<std::size_t, std::size_t>> parenPairs(std::string_view e) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::vector<std::size_t> open;
  bool quoted = false;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    if (e[i] == '(') open.push_back(i);
    if (e[i] == ')' && !open.empty()) {
      out.emplace_back(open.back(), i);
      open.pop_back();
    }
  }
  return out;
}

// A grouping parenthesis, not a function call's: no name right before it.
bool isGrouping(std::string_view e, std::size_t open) {
  std::size_t i = open;
  while (i > 0 && e[i - 1] == ' ') --i;
  return i == 0 || !isNameChar(e[i - 1]);
}

// The path a reference spanning [from, to) yields once the groupings
// around it apply their trailing properties, innermost first.
std::string throughGroupings(std::string_view e, const std::vector<std::pair<std::size_t, std::size_t>>& parens,
                             std::size_t from, std::size_t to, std::string path) {
  while (true) {
    const std::pair<std::size_t, std::size_t>* inner = nullptr;
    for (const auto& p : parens)
      if (p.first < from && p.second >= to && (inner == nullptr || p.first > inner->first)) inner = &p;
    if (inner == nullptr || !isGrouping(e, inner->first)) return path;
    std::size_t end = readContextPath(e, inner->second + 1, path);
    from = inner->first;
    to = end;
  }
}

}  // namespace

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }

std::vector<std::string_view> pathSegments(std::string_view path) {
  std::vector<std::string_view> out;
  while (true) {
    std::size_t dot = path.find('.');
    out.push_back(path.substr(0, dot));
    if (dot == std::string_view::npos) return out;
    path.remove_prefix(dot + 1);
  }
}

std::size_t readContextPath(std::string_view e, std::size_t at, std::string& norm) {
  std::size_t i = at;
  while (i < e.size()) {
    if (e[i] == '.' && i + 1 < e.size() && (isNameChar(e[i + 1]) || e[i + 1] == '*')) {
      norm.push_back('.');
      ++i;
      while (i < e.size() && (isNameChar(e[i]) || e[i] == '*')) norm.push_back(lower(e[i++]));
    } else if (e[i] == '[') {
      std::size_t close = e.find(']', i);
      if (close == std::string_view::npos) break;
      std::string_view inside = trim(e.substr(i + 1, close - i - 1));
      bool quoted = inside.size() >= 2 && (inside.front() == '\'' || inside.front() == '"');
      norm += '.';
      if (quoted)
        for (char c : inside.substr(1, inside.size() - 2)) norm.push_back(lower(c));
      else
        norm += '*';
      i = close + 1;
    } else {
      break;
    }
  }
  return i;
}

std::vector<ContextRef> contextRefsIn(std::string_view expression, std::string_view name) {
  std::vector<ContextRef> out;
  std::string folded(expression);
  for (char& c : folded) c = lower(c);
  std::vector<std::pair<std::size_t, std::size_t>> parens = parenPairs(expression);
  std::size_t at = 0;
  while (at < expression.size()) {
    std::size_t found = folded.find(name, at);
    if (found == std::string::npos) break;
    bool boundary = found == 0 || (!isNameChar(expression[found - 1]) && expression[found - 1] != '.');
    std::string path(name);
    std::size_t end = readContextPath(expression, found + name.size(), path);
    bool whole = end == expression.size() || !isNameChar(expression[end]);
    if (boundary && whole)
      out.push_back({expression.substr(found, end - found), throughGroupings(expression, parens, found, end, path)});
    at = std::max(end, found + name.size());
  }
  return out;
}

std::vector<std::string_view> expressionsIn(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = text.find("${{");
  while (at != std::string_view::npos) {
    std::size_t end = text.find("}}", at + 3);
    if (end == std::string_view::npos) break;
    out.push_back(text.substr(at, end + 2 - at));
    at = text.find("${{", end + 2);
  }
  return out;
}

std::string_view expressionBody(std::string_view e) {
  e = trim(e);
  if (e.starts_with("${{") && e.ends_with("}}")) e = e.substr(3, e.size() - 5);
  return trim(e);
}

bool isUntrustedContext(std::string_view normalizedPath) {
  std::vector<std::string_view> path = pathSegments(normalizedPath);
  for (std::string_view pattern : kUntrusted)
    if (compare(path, pattern) != 0) return true;
  return false;
}

std::vector<std::string> untrustedRefsIn(std::string_view expression) {
  std::vector<std::string> out;
  for (const ContextRef& ref : contextRefsIn(expression, "github"))
    if (ref.path != "github" && isUntrustedContext(ref.path)) out.emplace_back(ref.text);
  return out;
}

}  // namespace lw::agents::security
