#include "eval/eval_case.h"

#include <exception>

#include "core/file_io.h"
#include "policy/yaml/yaml_document.h"
#include "policy/yaml/yaml_schema.h"

namespace lw::eval {
namespace {

// `lines: 12` or `lines: [12, 15]`, first <= last, both >= 1.
std::optional<LineRange> readLines(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path) {
  if (node.IsScalar()) {
    auto n = reader.integer(node, path, 1, 10'000'000);
    if (!n) return std::nullopt;
    return LineRange{static_cast<int>(*n), static_cast<int>(*n)};
  }
  LineRange range;
  bool ok = true;
  std::vector<int> ends;
  bool shaped = reader.sequence(node, path, 2, 2, [&](const YAML::Node& n, const std::string& p) {
    auto v = reader.integer(n, p, 1, 10'000'000);
    ok = ok && v.has_value();
    ends.push_back(v ? static_cast<int>(*v) : 0);
  });
  if (!shaped || !ok) return std::nullopt;
  range = {ends[0], ends[1]};
  if (range.first > range.last) {
    reader.error(node, path, "the range ends before it starts", "write [first, last] with first <= last");
    return std::nullopt;
  }
  return range;
}

FindingPattern readPattern(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path) {
  FindingPattern f;
  f.location = reader.locate(node, path);
  auto entries = reader.mapping(node, path, {"path", "lines", "rule", "tag", "step"}, {"path"});
  if (!entries) return f;
  for (const MapEntry& e : *entries) {
    std::string p = childPath(path, e.key);
    if (e.key == "path") {
      if (auto s = reader.string(e.value, p, 4096)) f.path = *s;
    } else if (e.key == "lines") {
      if (auto r = readLines(reader, e.value, p)) f.lines = *r;
    } else if (e.key == "rule") {
      if (auto s = reader.string(e.value, p, 256)) f.rule = *s;
    } else if (e.key == "tag") {
      if (auto s = reader.string(e.value, p, 256)) f.tag = *s;
    } else if (e.key == "step") {
      if (auto s = reader.name(e.value, p)) f.step = *s;
    }
  }
  if (!f.path.empty() && (f.path.front() == '/' || f.path.find("..") != std::string::npos))
    reader.error(find(*entries, "path"), childPath(path, "path"), "'" + f.path + "' is not repository-relative",
                 "write the path from the repository's root, without '..'");
  return f;
}

void readPatterns(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                  std::vector<FindingPattern>& out) {
  reader.sequence(node, path, 0, 1000,
                  [&](const YAML::Node& n, const std::string& p) { out.push_back(readPattern(reader, n, p)); });
}

void readEntry(YamlSchemaReader& reader, const MapEntry& e, EvalCase& c) {
  const std::string& p = e.key;
  if (e.key == "description") {
    if (auto s = reader.string(e.value, p, 4096)) c.description = *s;
  } else if (e.key == "base") {
    if (auto s = reader.string(e.value, p, 256)) c.base = *s;
  } else if (e.key == "head") {
    if (auto s = reader.string(e.value, p, 256)) c.head = *s;
  } else if (e.key == "patch") {
    if (auto s = reader.string(e.value, p, 256)) c.patchFile = *s;
  } else if (e.key == "event") {
    if (auto s = reader.oneOf(e.value, p, {"pull_request.opened", "pull_request.synchronize", "pull_request.reopened"}))
      c.event = *s;
  } else if (e.key == "title") {
    if (auto s = reader.string(e.value, p, 256)) c.title = *s;
  } else if (e.key == "tolerance") {
    if (auto v = reader.integer(e.value, p, 0, 100)) c.tolerance = static_cast<int>(*v);
  } else if (e.key == "expect") {
    readPatterns(reader, e.value, p, c.expect);
  } else if (e.key == "mustNot") {
    readPatterns(reader, e.value, p, c.mustNot);
  }
}

// Exactly one of head and patch; the patch a plain file name beside case.yaml.
void checkChange(YamlSchemaReader& reader, const std::vector<MapEntry>& entries, const EvalCase& c) {
  if (c.head.empty() == c.patchFile.empty())
    reader.errorAt({c.file, 1, 1, ""}, "give exactly one of head and patch",
                   "head: a revision of the repository; patch: a file in the case's directory");
  if (!c.patchFile.empty() && (c.patchFile.find('/') != std::string::npos || c.patchFile.starts_with(".")))
    reader.error(find(entries, "patch"), "patch", "'" + c.patchFile + "' is not a file beside case.yaml",
                 "name a file in the case's directory, e.g. change.patch");
}

}  // namespace

Result<EvalCase> parseEvalCase(std::string_view text, const std::string& file, const std::string& name) {
  std::vector<Diagnostic> diagnostics;
  EvalCase c;
  c.file = file;
  c.name = name;
  try {
    auto root = parseYamlDocument(text, file, kMaxCaseBytes, diagnostics);
    if (root) {
      YamlSchemaReader reader(file);
      auto entries = reader.mapping(
          *root, "", {"description", "base", "head", "patch", "event", "title", "tolerance", "expect", "mustNot"});
      if (entries) {
        for (const MapEntry& e : *entries) readEntry(reader, e, c);
        checkChange(reader, *entries, c);
      }
      diagnostics = reader.takeDiagnostics();
    }
  } catch (const std::exception& e) {
    diagnostics.push_back({{file, 0, 0, ""}, std::string("cannot be read: ") + e.what(), ""});
  }
  if (diagnostics.empty()) return c;
  Error error =
      makeError(ErrorCode::EvalCaseInvalid,
                file + ": " + std::to_string(diagnostics.size()) + (diagnostics.size() == 1 ? " problem" : " problems"),
                "fix each problem listed (docs/evals.md describes case.yaml)", file);
  error.diagnostics = std::move(diagnostics);
  return error;
}

Result<EvalCase> loadEvalCase(const std::string& dir) {
  const std::string file = dir + "/case.yaml";
  auto text = readBoundedFile(file, kMaxCaseBytes, ErrorCode::IoError);
  if (!text) return text.error();
  std::string name = dir;
  while (name.size() > 1 && name.back() == '/') name.pop_back();
  if (auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  return parseEvalCase(*text, file, name);
}

}  // namespace lw::eval
