#include "agents/security/untrusted_context.h"

#include <array>
#include <cctype>

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
};

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  while (true) {
    std::size_t dot = path.find('.');
    out.push_back(path.substr(0, dot));
    if (dot == std::string_view::npos) return out;
    path.remove_prefix(dot + 1);
  }
}

// 1: the path is the pattern; 2: the path is an object above it; 0: neither.
int compare(const std::vector<std::string_view>& path, std::string_view pattern) {
  std::vector<std::string_view> pat = segments(pattern);
  if (path.size() > pat.size()) return 0;
  for (std::size_t i = 0; i < path.size(); ++i)
    if (pat[i] != "*" && path[i] != "*" && pat[i] != path[i]) return 0;
  return path.size() == pat.size() ? 1 : 2;
}

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }

// Reads `github(.name|[index]|.*)*` starting at `at`; appends the
// normalised path to `norm` and returns the end offset.
std::size_t readReference(std::string_view e, std::size_t at, std::string& norm) {
  std::size_t i = at;
  while (i < e.size()) {
    if (e[i] == '.' && i + 1 < e.size() && (isIdentChar(e[i + 1]) || e[i + 1] == '*')) {
      norm.push_back('.');
      ++i;
      while (i < e.size() && (isIdentChar(e[i]) || e[i] == '*'))
        norm.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(e[i++]))));
    } else if (e[i] == '[') {
      std::size_t close = e.find(']', i);
      if (close == std::string_view::npos) break;
      std::string_view inside = e.substr(i + 1, close - i - 1);
      bool quoted = inside.size() >= 2 && (inside.front() == '\'' || inside.front() == '"');
      norm += '.';
      if (quoted)
        for (char c : inside.substr(1, inside.size() - 2))
          norm.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      else norm += '*';
      i = close + 1;
    } else {
      break;
    }
  }
  return i;
}

}  // namespace

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

bool isUntrustedContext(std::string_view normalizedPath) {
  std::vector<std::string_view> path = segments(normalizedPath);
  for (std::string_view pattern : kUntrusted)
    if (compare(path, pattern) != 0) return true;
  return false;
}

std::vector<std::string> untrustedRefsIn(std::string_view expression) {
  std::vector<std::string> out;
  // Context names are case-insensitive in expressions (GitHub.Event works).
  std::string folded(expression);
  for (char& c : folded) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::size_t at = 0;
  while (at < expression.size()) {
    std::size_t found = folded.find("github", at);
    if (found == std::string_view::npos) break;
    bool boundary = found == 0 || (!isIdentChar(expression[found - 1]) && expression[found - 1] != '.');
    std::string norm = "github";
    std::size_t end = readReference(expression, found + 6, norm);
    bool whole = end == expression.size() || !isIdentChar(expression[end]);
    if (boundary && whole && norm != "github" && isUntrustedContext(norm))
      out.emplace_back(expression.substr(found, end - found));
    at = end > found + 6 ? end : found + 6;
  }
  return out;
}

}  // namespace lw::agents::security
