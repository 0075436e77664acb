#include "core/step_coverage.h"

#include <boost/json.hpp>

#include "core/json_fields.h"

namespace lw {

namespace json = boost::json;
using namespace json_fields;

std::string_view toString(FileReview r) {
  switch (r) {
    case FileReview::Reviewed: return "reviewed";
    case FileReview::Clipped: return "clipped";
    case FileReview::Skipped: return "skipped";
  }
  return "skipped";
}

std::optional<FileReview> parseFileReview(std::string_view s) {
  if (s == "reviewed") return FileReview::Reviewed;
  if (s == "clipped") return FileReview::Clipped;
  if (s == "skipped") return FileReview::Skipped;
  return std::nullopt;
}

json::value toJson(const Coverage& c) {
  json::array files;
  for (const FileCoverage& f : c.files)
    files.push_back(json::object{{"path", f.path}, {"status", toString(f.status)}, {"reason", f.reason}});
  json::object o{
      {"files", std::move(files)},
      {"complete", c.complete},
      {"reason", c.reason},
      {"tokensUsed", c.tokensUsed},
      {"head", c.head},
      {"incrementalFrom", c.incrementalFrom.empty() ? json::value(nullptr) : json::value(c.incrementalFrom)}};
  // Written only when there is one, so a step that dropped nothing writes
  // what it always wrote.
  if (c.dropped.empty()) return o;
  json::array dropped;
  for (const DroppedFinding& d : c.dropped)
    dropped.push_back(json::object{
        {"path", d.path}, {"line", d.line}, {"endLine", d.endLine}, {"rule", d.rule}, {"reason", d.reason}});
  o["dropped"] = std::move(dropped);
  return o;
}

namespace {

std::vector<DroppedFinding> readDropped(const json::object& o, const std::string& path) {
  std::vector<DroppedFinding> out;
  const json::array* list = optArray(o, "dropped", path);
  for (std::size_t i = 0; list != nullptr && i < list->size(); ++i) {
    std::string p = join(path, "dropped") + "[" + std::to_string(i) + "]";
    const json::object& d = object((*list)[i], p);
    out.push_back({str(d, "path", p), static_cast<int>(optInt(d, "line", p).value_or(0)),
                   static_cast<int>(optInt(d, "endLine", p).value_or(0)), optStr(d, "rule", p).value_or(""),
                   str(d, "reason", p)});
  }
  return out;
}

}  // namespace

Coverage readCoverage(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  Coverage c;
  if (const json::array* files = optArray(o, "files", path)) {
    for (std::size_t i = 0; i < files->size(); ++i) {
      std::string p = join(path, "files") + "[" + std::to_string(i) + "]";
      const json::object& f = object((*files)[i], p);
      std::string status = str(f, "status", p);
      auto parsed = parseFileReview(status);
      if (!parsed) throw FieldError(join(p, "status"), "unknown status '" + status + "'");
      c.files.push_back({str(f, "path", p), *parsed, optStr(f, "reason", p).value_or("")});
    }
  }
  c.complete = boolean(o, "complete", path);
  c.reason = optStr(o, "reason", path).value_or("");
  c.tokensUsed = optInt(o, "tokensUsed", path).value_or(0);
  c.head = optStr(o, "head", path).value_or("");
  c.incrementalFrom = optStr(o, "incrementalFrom", path).value_or("");
  c.dropped = readDropped(o, path);
  return c;
}

std::vector<std::string> reviewedPaths(const Coverage& c) {
  std::vector<std::string> out;
  for (const FileCoverage& f : c.files)
    if (f.status == FileReview::Reviewed) out.push_back(f.path);
  return out;
}

}  // namespace lw
