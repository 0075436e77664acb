#include "agents/lint/pattern_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lw::agents::lint {

namespace {

Error badPattern(std::string_view pattern, std::size_t offset, std::string what) {
  Error e = makeError(ErrorCode::TaskpackInvalid, "builtin/lint pattern \"" + std::string(pattern) + "\": " + what,
                      "directives: %f file, %l line, %e end line, %c column, %s severity, %r rule, "
                      "%m message, %% a percent sign",
                      "with.pattern");
  Location l;
  l.path = "with.pattern";
  l.column = static_cast<int>(offset) + 1;
  e.location = l;
  return e;
}

// What each directive matches. %f is lazy, so "%f:%l:" splits at the first
// ":<digits>:" and a file name may itself hold ':'.
const char* directiveRegex(char d) {
  switch (d) {
    case 'f': return "(.+?)";
    case 'l':
    case 'e':
    case 'c': return "([0-9]+)";
    case 's': return "([A-Za-z]+)";
    case 'r': return "([^\\s\\[\\]()]+)";
    case 'm': return "(.*)";
  }
  return nullptr;
}

std::string escaped(char c) {
  static const std::string_view special = "\\^$.|?*+()[]{}";
  if (special.find(c) != std::string_view::npos) return std::string("\\") + c;
  return std::string(1, c);
}

int number(const std::smatch& m, int group) {
  if (group == 0 || !m[group].matched) return 0;
  int value = 0;
  std::string s = m[group].str();
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size() ? value : 0;
}

}  // namespace

Result<LinePattern> LinePattern::compile(std::string_view pattern) {
  LinePattern p;
  std::string regex;
  int group = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      regex += escaped(pattern[i]);
      continue;
    }
    if (i + 1 >= pattern.size()) return badPattern(pattern, i, "a % at the end");
    char d = pattern[++i];
    if (d == '%') {
      regex += "%";
      continue;
    }
    const char* part = directiveRegex(d);
    if (part == nullptr) return badPattern(pattern, i - 1, std::string("unknown directive %") + d);
    int* slot = d == 'f'   ? &p.file_
                : d == 'l' ? &p.line_
                : d == 'e' ? &p.endLine_
                : d == 'c' ? &p.column_
                : d == 's' ? &p.severity_
                : d == 'r' ? &p.rule_
                           : &p.message_;
    if (*slot != 0) return badPattern(pattern, i - 1, std::string("%") + d + " appears twice");
    *slot = ++group;
    regex += part;
  }
  if (p.file_ == 0 || p.message_ == 0) return badPattern(pattern, 0, "a pattern needs %f and %m");
  p.regex_ = std::regex(regex, std::regex::ECMAScript | std::regex::optimize);
  return p;
}

std::optional<LintDiagnostic> LinePattern::match(std::string_view line) const {
  std::smatch m;
  std::string text(line);
  if (!std::regex_match(text, m, regex_)) return std::nullopt;
  LintDiagnostic d;
  d.path = m[file_].str();
  d.line = number(m, line_);
  int end = number(m, endLine_);
  d.endLine = end > d.line ? end : 0;
  d.column = number(m, column_);
  if (severity_ != 0) d.severity = severityWord(m[severity_].str());
  if (rule_ != 0) d.rule = m[rule_].str();
  d.message = m[message_].str();
  return d;
}

Result<ParsedOutput> parseLines(const LinePattern& pattern, std::string_view text) {
  if (text.size() > kMaxOutputBytes) return outputTooLarge("pattern", text.size());
  ParsedOutput out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::optional<LintDiagnostic> d;
    if (line.size() <= kMaxPatternLine) d = pattern.match(line);
    if (d)
      addDiagnostic(out, std::move(*d));
    else
      ++out.ignored;
  }
  return out;
}

std::optional<Severity> severityWord(std::string_view word) {
  std::string w(word);
  std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return std::tolower(c); });
  if (w == "error" || w == "e" || w == "fatal") return Severity::Error;
  if (w == "warning" || w == "w" || w == "warn") return Severity::Warning;
  if (w == "note" || w == "n" || w == "info" || w == "i" || w == "notice") return Severity::Notice;
  return std::nullopt;
}

}  // namespace lw::agents::lint
