#include "policy/yaml_document.h"

#include <algorithm>
#include <exception>

#include "core/file_io.h"

namespace lw {
namespace {

Diagnostic at(const std::string& file, std::string_view text, std::size_t offset,
              std::string message, std::string hint) {
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
      if (c == '\\' && quote == '"') ++i;
      else if (c == quote) quote = 0;
      else if (c == '\n') lineStart = true;
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

}  // namespace

std::optional<YAML::Node> parseYamlDocument(std::string_view text, const std::string& file,
                                            std::size_t maxBytes,
                                            std::vector<Diagnostic>& diagnostics) {
  if (text.size() > maxBytes) {
    diagnostics.push_back({{file, 0, 0, ""},
                           "is " + std::to_string(text.size()) + " bytes; the limit is " +
                               std::to_string(maxBytes),
                           "move long scripts into files the steps run"});
    return std::nullopt;
  }
  if (auto nul = text.find('\0'); nul != std::string_view::npos) {
    diagnostics.push_back(at(file, text, nul, "contains a NUL byte: this is not a YAML text file",
                             "check that the path names the taskpack, not a binary"));
    return std::nullopt;
  }
  if (auto bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
    diagnostics.push_back(at(file, text, bad, "is not valid UTF-8 here",
                             "save the file as UTF-8"));
    return std::nullopt;
  }
  if (auto deep = firstTooDeep(text, kMaxYamlNesting); deep != std::string_view::npos) {
    diagnostics.push_back(at(file, text, deep,
                             "nests deeper than " + std::to_string(kMaxYamlNesting) + " levels",
                             "no loopwright document needs this depth"));
    return std::nullopt;
  }
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(std::string(text));
    if (docs.size() > 1) {
      diagnostics.push_back({{file, docs[1].Mark().line + 1, docs[1].Mark().column + 1, ""},
                             "holds more than one YAML document",
                             "remove the '---' separator and the second document"});
      return std::nullopt;
    }
    if (docs.empty() || docs[0].IsNull()) {
      diagnostics.push_back({{file, 1, 1, ""}, "is empty", "start from examples/"});
      return std::nullopt;
    }
    return docs[0];
  } catch (const YAML::Exception& e) {
    Location loc{file, 0, 0, ""};
    if (!e.mark.is_null()) {
      loc.line = e.mark.line + 1;
      loc.column = e.mark.column + 1;
    }
    diagnostics.push_back({loc, "YAML syntax error: " + e.msg,
                           "check the indentation and quoting around this place"});
  } catch (const std::exception& e) {
    diagnostics.push_back({{file, 0, 0, ""}, std::string("cannot be parsed: ") + e.what(), ""});
  }
  return std::nullopt;
}

}  // namespace lw
