#include "agents/security/workflow/expression_code.h"

#include <algorithm>
#include <cctype>

#include "agents/security/workflow/untrusted_context.h"

namespace lw::agents::security {

namespace {

// The name after `secrets` at `at` in lower-cased expression text:
// `.name` or `['name']`; "…" for a computed index, empty when none follows.
std::string secretNameAt(std::string_view text, std::size_t at) {
  std::size_t i = at + 7;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i >= text.size() || (text[i] != '.' && text[i] != '[')) return {};
  bool literal = text.substr(i).starts_with("['");
  std::size_t start = i + (literal ? 2 : 1), end = start;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) ++end;
  return end > start ? std::string(text.substr(start, end - start)) : "…";
}

}  // namespace

std::string expressionCode(std::string_view expression, bool keepLiterals) {
  std::string_view e = expressionBody(expression);
  std::string out;
  for (std::size_t i = 0; i < e.size(); ++i) {
    char c = e[i];
    if (c == '\'') {  // a literal, '' inside it being a quote
      std::size_t j = i + 1;
      while (j < e.size() && !(e[j] == '\'' && (j + 1 >= e.size() || e[j + 1] != '\''))) j += e[j] == '\'' ? 2 : 1;
      std::string_view literal = e.substr(i, std::min(j, e.size() - 1) - i + 1);
      out += keepLiterals ? lowerCase(literal) : std::string("''");
      i = j;
    } else if (std::isspace(static_cast<unsigned char>(c)) == 0) {
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return out;
}

bool startsName(std::string_view code, std::size_t at) {
  return at == 0 || (!isNameChar(code[at - 1]) && code[at - 1] != '.');
}

std::vector<FileExpression> fileExpressions(const FileLines& lines) {
  std::vector<FileExpression> out;
  if (lines.empty()) return out;
  // The lines are views into one text: read it whole, so that an expression
  // over several lines is one, then map each back to its line.
  const char* begin = lines.front().data();
  std::string_view all(begin, static_cast<std::size_t>(lines.back().data() + lines.back().size() - begin));
  std::vector<const char*> starts;
  for (std::string_view l : lines) starts.push_back(l.data());
  for (std::string_view e : expressionsIn(all)) {
    auto after = std::upper_bound(starts.begin(), starts.end(), e.data());
    int line = static_cast<int>(after - starts.begin());
    if (trim(lines[static_cast<std::size_t>(line - 1)]).starts_with("#")) continue;
    out.push_back({e, line});
  }
  return out;
}

std::vector<std::string> secretsRead(std::string_view expression) {
  std::string text = lowerCase(expression);
  std::vector<std::string> out;
  bool inLiteral = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\'') inLiteral = !inLiteral;  // '' inside a literal toggles twice
    if (inLiteral || !text.substr(i).starts_with("secrets") || !startsName(text, i)) continue;
    std::string name = secretNameAt(text, i);
    if (!name.empty() && name != "github_token") out.push_back(name);
  }
  return out;
}

}  // namespace lw::agents::security
