#include "agents/lint/checkstyle_parser.h"

#include <charconv>
#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

namespace lw::agents::lint {

namespace pt = boost::property_tree;

namespace {

constexpr std::string_view kFormat = "checkstyle";

struct Malformed {
  Error error;
};

[[noreturn]] void fail(std::string what, const std::string& path) {
  Location l;
  l.path = path;
  throw Malformed{malformedOutput(kFormat, path + ": " + what, l)};
}

int positionAttribute(const pt::ptree& attributes, const char* name, const std::string& path) {
  std::string text = attributes.get<std::string>(name, "");
  if (text.empty()) return 0;
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    fail(std::string(name) + "=\"" + text + "\" is not a line or column number", path);
  }
  return value;
}

std::optional<Severity> severityOf(const std::string& s) {
  if (s == "error") return Severity::Error;
  if (s == "warning") return Severity::Warning;
  if (s == "info") return Severity::Notice;
  return std::nullopt;
}

void readError(const pt::ptree& error, const std::string& file, const std::string& path, ParsedOutput& out) {
  static const pt::ptree kNone;
  const pt::ptree& attributes = error.get_child("<xmlattr>", kNone);
  std::string severity = attributes.get<std::string>("severity", "");
  if (severity == "ignore") {
    ++out.ignored;
    return;
  }
  LintDiagnostic d;
  d.path = file;
  d.line = positionAttribute(attributes, "line", path);
  d.column = positionAttribute(attributes, "column", path);
  d.severity = severityOf(severity);
  d.message = attributes.get<std::string>("message", "");
  d.rule = attributes.get<std::string>("source", "");
  addDiagnostic(out, std::move(d));
}

ParsedOutput readDocument(const pt::ptree& document) {
  auto root = document.get_child_optional("checkstyle");
  if (!root) fail("no <checkstyle> root element", "checkstyle");
  ParsedOutput out;
  std::size_t fileIndex = 0;
  for (const auto& [name, file] : *root) {
    if (name != "file") continue;
    std::string fpath = "checkstyle.file[" + std::to_string(fileIndex++) + "]";
    std::string path = file.get<std::string>("<xmlattr>.name", "");
    if (path.empty()) fail("a <file> without a name", fpath);
    std::size_t errorIndex = 0;
    for (const auto& [tag, error] : file) {
      if (tag != "error") continue;
      readError(error, path, fpath + ".error[" + std::to_string(errorIndex++) + "]", out);
    }
  }
  return out;
}

// rapidxml, under Boost.PropertyTree, recurses once per nested element: a
// linter's output nested thousands deep would exhaust the stack. This
// over-estimates the depth (a '<' in a comment counts) to refuse such text
// before it is parsed; real reports are three deep.
constexpr int kMaxDepth = 256;

std::optional<int> tooDeepAtLine(std::string_view text) {
  int depth = 0;
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '>') --depth;
    if (text[i] != '<' || i + 1 >= text.size()) continue;
    char next = text[i + 1];
    if (next == '/')
      --depth;
    else if (next != '?' && next != '!')
      ++depth;
    if (depth > kMaxDepth) return line;
  }
  return std::nullopt;
}

}  // namespace

Result<ParsedOutput> parseCheckstyle(std::string_view text) {
  if (text.size() > kMaxOutputBytes) return outputTooLarge(kFormat, text.size());
  if (auto line = tooDeepAtLine(text)) {
    Location l;
    l.line = *line;
    return malformedOutput(kFormat, "elements nested more than " + std::to_string(kMaxDepth) + " deep", l);
  }
  std::istringstream in{std::string(text)};
  pt::ptree document;
  try {
    pt::read_xml(in, document);
    return readDocument(document);
  } catch (const pt::xml_parser_error& e) {
    Location l;
    l.line = static_cast<int>(e.line());
    return malformedOutput(kFormat, "not XML (" + e.message() + ")", l);
  } catch (Malformed& e) {
    return std::move(e.error);
  }
}

}  // namespace lw::agents::lint
