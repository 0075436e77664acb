#include "policy/yaml/yaml_document.h"

#include <algorithm>
#include <exception>

#include "core/file_io.h"

namespace lw {
namespace {

Diagnostic at(const std::string& file, std::string_view text, std::size_t offset, std::string message,
              std::string hint) {
  auto [line, column] = lineColumnAt(text, offset);
  return {{file, line, column, ""}, std::move(message), std::move(hint)};
}

// The offset where flow brackets or block indentation first nest deeper than
// the limit, or npos. Quoted strings and comments are skipped; the estimate
// of block depth (indentation steps plus "- " prefixes) errs on the deep side.
std::size_t firstTooDeep(std::string_view text, int limit) {
  int flow = 0;
  std::vector<std::size_t> indents;  // block indentation stack of the current line
  bool lineStart = true;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == '\\' && quote == '"')
        ++i;
      else if (c == quote)
        quote = 0;
      else if (c == '\n')
        lineStart = true;
      continue;
    }
    if (lineStart && flow == 0) {
      std::size_t indent = 0;
      while (i + indent < text.size() && text[i + indent] == ' ') ++indent;
      // A "- " prefix opens a nested block at the column after it.
      std::size_t j = i + indent;
      while (j + 1 < text.size() && text[j] == '-' && text[j + 1] == ' ') {
        j += 2;
        while (j < text.size() && text[j] == ' ') ++j;
      }
      std::size_t depthHere = j - i;
      while (!indents.empty() && indents.back() >= depthHere) indents.pop_back();
      indents.push_back(depthHere);
      int dashes = 0;
      for (std::size_t k = i + indent; k + 1 < j; ++k)
        if (text[k] == '-' && text[k + 1] == ' ') ++dashes;
      if (static_cast<int>(indents.size()) + dashes > limit) return i;
      lineStart = false;
    }
    if (c == '\n') {
      lineStart = true;
    } else if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      if (++flow > limit) return i;
    } else if ((c == ']' || c == '}') && flow > 0) {
      --flow;
    }
  }
  return std::string_view::npos;
}

// The offset of a document marker ("---" or "..." at column 0) that follows
// content, or npos. At column 0 such a marker always ends a document in YAML,
// even inside a block scalar, so a text scan is exact.
std::size_t secondDocumentMarker(std::string_view text) {
  bool content = false;
  std::size_t lineStart = 0;
  while (lineStart < text.size()) {
    std::size_t end = text.find('\n', lineStart);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(lineStart, end - lineStart);
    bool marker = (line.starts_with("---") || line.starts_with("...")) &&
                  (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
    if (marker && (content || line.starts_with("..."))) return lineStart;
    std::size_t first = line.find_first_not_of(" \t\r");
    if (!marker && first != std::string_view::npos && line[first] != '#' && line[first] != '%') content = true;
    if (marker && line.size() > 4 && line.find_first_not_of(" \t\r", 4) != std::string_view::npos &&
        line[line.find_first_not_of(" \t\r", 4)] != '#')
      content = true;  // "--- value" starts the document's content on the marker line
    lineStart = end + 1;
  }
  return std::string_view::npos;
}

// yaml-cpp 0.7 looks for the end of the text only inside a line: a quoted
// scalar left open takes in the rest of the file and is closed silently when
// the text ends with a line break, and "illegal EOF in scalar" is thrown only
// when it does not. Blank space after the last line carries no data (at most
// the final line break of a last block scalar), so the parser is given the
// text without it.
std::string_view withoutTrailingBlank(std::string_view text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}

}  // namespace

Location yamlLocation(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0, ""};
  return {file, mark.line + 1, mark.column + 1, ""};
}

std::optional<YAML::Node> parseYamlDocument(std::string_view text, const std::string& file, std::size_t maxBytes,
                                            std::vector<Diagnostic>& diagnostics) {
  if (text.size() > maxBytes) {
    diagnostics.push_back({{file, 0, 0, ""},
                           "is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(maxBytes),
                           "move long scripts into files the steps run"});
    return std::nullopt;
  }
  if (auto nul = text.find('\0'); nul != std::string_view::npos) {
    diagnostics.push_back(at(file, text, nul, "contains a NUL byte: this is not a YAML text file",
                             "check that the path names the taskpack, not a binary"));
    return std::nullopt;
  }
  if (auto bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
    diagnostics.push_back(at(file, text, bad, "is not valid UTF-8 here", "save the file as UTF-8"));
    return std::nullopt;
  }
  if (auto deep = firstTooDeep(text, kMaxYamlNesting); deep != std::string_view::npos) {
    diagnostics.push_back(at(file, text, deep, "nests deeper than " + std::to_string(kMaxYamlNesting) + " levels",
                             "no loopwright document needs this depth"));
    return std::nullopt;
  }
  try {
    if (auto second = secondDocumentMarker(text); second != std::string_view::npos) {
      diagnostics.push_back(
          at(file, text, second, "holds more than one YAML document", "remove this separator and what follows it"));
      return std::nullopt;
    }
    // YAML::Load, not LoadAll: yaml-cpp 0.7's LoadAll can loop forever on
    // malformed trailing input (found by the fuzz harness).
    YAML::Node root = YAML::Load(std::string(withoutTrailingBlank(text)));
    if (!root.IsDefined() || root.IsNull()) {
      diagnostics.push_back(
          {{file, 1, 1, ""}, "is empty", "the README shows a complete one (docs/taskpack.md, docs/host-config.md)"});
      return std::nullopt;
    }
    return root;
  } catch (const YAML::Exception& e) {
    diagnostics.push_back({yamlLocation(file, e.mark), "YAML syntax error: " + e.msg,
                           "check the indentation and quoting around this place"});
  } catch (const std::exception& e) {
    diagnostics.push_back({{file, 0, 0, ""}, std::string("cannot be parsed: ") + e.what(), ""});
  }
  return std::nullopt;
}

}  // namespace lw
