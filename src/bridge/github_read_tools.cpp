#include "bridge/github_read_tools.h"
#include "policy/model/tool_names.h"

#include <boost/json/array.hpp>

namespace lw::bridge {

namespace json = boost::json;

namespace {

json::array strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v) out.emplace_back(s);
  return out;
}

json::object scopeFields(const DiffScope& s) {
  return json::object{{"base", s.base}, {"head", s.head}, {"incremental", s.incremental}};
}

json::object objectSchema(json::object properties, json::array required = {}) {
  json::object schema{{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

json::object fullFlagSchema() {
  return objectSchema(json::object{{"full", json::object{{"type", "boolean"},
                                                         {"description",
                                                          "the whole pull request even when an earlier review "
                                                          "covered part of it"}}}});
}

template <class T>
Result<ToolOutput> answer(Result<T> r) {
  if (!r) return std::move(r).error();
  ToolOutput out;
  out.structured = toJson(*r);
  return out;
}

bool flag(const json::object& args, const char* name) {
  const json::value* v = args.if_contains(name);
  return v && v->is_bool() && v->get_bool();
}

Tool makeTool(std::string name, std::string description, json::object schema, ToolHandler handler) {
  Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.inputSchema = std::move(schema);
  t.handler = std::move(handler);
  return t;
}

Tool fileTool(std::shared_ptr<GithubReader> reader) {
  json::object schema =
      objectSchema(json::object{{"path", json::object{{"type", "string"}, {"minLength", 1}, {"maxLength", 4096}}},
                                {"ref", json::object{{"type", "string"}, {"enum", json::array{"base", "head"}}}}},
                   json::array{"path", "ref"});
  return makeTool(tools::kGithubFile,
                  "A file of the repository at the pull request's base or head commit (at most 1 MiB of it).",
                  std::move(schema), [reader](const json::object& args, ToolContext&) -> Result<ToolOutput> {
                    std::string path(args.at("path").as_string());
                    if (std::string why = filePathProblem(path); !why.empty())
                      return makeError(ErrorCode::UsageError, "path '" + path + "' " + why,
                                       "give a path relative to the repository root, e.g. src/main.c");
                    TreeSide side = args.at("ref").as_string() == "base" ? TreeSide::Base : TreeSide::Head;
                    return answer(reader->file(path, side));
                  });
}

Tool issueTool(std::shared_ptr<GithubReader> reader) {
  json::object schema = objectSchema(
      json::object{{"number", json::object{{"type", "integer"}, {"minimum", 1}, {"maximum", 2147483647}}}});
  return makeTool(tools::kGithubIssue,
                  "An issue or pull request with its comments (default: the one the event is about).",
                  std::move(schema), [reader](const json::object& args, ToolContext&) -> Result<ToolOutput> {
                    std::optional<int> number;
                    if (const json::value* n = args.if_contains("number"); n && n->is_int64())
                      number = static_cast<int>(n->get_int64());
                    return answer(reader->issue(number));
                  });
}

Tool searchTool(std::shared_ptr<GithubReader> reader) {
  // GitHub refuses a query longer than 256 characters (qualifiers aside).
  json::object schema =
      objectSchema(json::object{{"query", json::object{{"type", "string"}, {"minLength", 1}, {"maxLength", 256}}},
                                {"maxResults", json::object{{"type", "integer"}, {"minimum", 1}, {"maximum", 100}}}},
                   json::array{"query"});
  return makeTool(tools::kGithubIssuesSearch,
                  "Search this repository's issues and pull requests (GitHub search syntax; the "
                  "repository is added by the bridge). At most 30 searches a minute.",
                  std::move(schema), [reader](const json::object& args, ToolContext&) -> Result<ToolOutput> {
                    int max = 30;
                    if (const json::value* n = args.if_contains("maxResults"); n && n->is_int64())
                      max = static_cast<int>(n->get_int64());
                    return answer(reader->searchIssues(std::string(args.at("query").as_string()), max));
                  });
}

}  // namespace

json::object toJson(const PullSummary& p) {
  return json::object{{"number", p.number},
                      {"title", p.title},
                      {"body", p.body},
                      {"author", p.author},
                      {"authorAssociation", p.authorAssociation},
                      {"baseSha", p.baseSha},
                      {"headSha", p.headSha},
                      {"baseRef", p.baseRef},
                      {"headRef", p.headRef},
                      {"labels", strings(p.labels)},
                      {"draft", p.draft}};
}

json::object toJson(const PullDiff& d) {
  json::object o = scopeFields(d.scope);
  o["diff"] = d.diff;
  o["truncated"] = d.truncated;
  return o;
}

json::object toJson(const PullFiles& f) {
  json::object o = scopeFields(f.scope);
  json::array files;
  for (const ChangedFile& c : f.files) {
    json::object e{{"path", c.path}, {"status", toString(c.status)}};
    if (!c.previousPath.empty()) e["previousPath"] = c.previousPath;
    e["additions"] = c.additions;
    e["deletions"] = c.deletions;
    e["binary"] = c.binary;
    files.push_back(std::move(e));
  }
  o["files"] = std::move(files);
  o["truncated"] = f.truncated;
  return o;
}

json::object toJson(const FileAtRef& f) {
  return json::object{{"path", f.path},       {"ref", toString(f.side)},  {"sha", f.sha},      {"size", f.size},
                      {"content", f.content}, {"truncated", f.truncated}, {"binary", f.binary}};
}

json::object toJson(const IssueThread& t) {
  json::array comments;
  for (const IssueComment& c : t.comments)
    comments.push_back(json::object{{"author", c.author},
                                    {"authorAssociation", c.authorAssociation},
                                    {"body", c.body},
                                    {"createdAt", c.createdAt}});
  return json::object{{"number", t.number},
                      {"title", t.title},
                      {"body", t.body},
                      {"author", t.author},
                      {"authorAssociation", t.authorAssociation},
                      {"state", t.state},
                      {"labels", strings(t.labels)},
                      {"comments", std::move(comments)},
                      {"commentsTruncated", t.commentsTruncated}};
}

json::object toJson(const IssueSearch& s) {
  json::array items;
  for (const IssueHit& h : s.items)
    items.push_back(json::object{{"number", h.number},
                                 {"title", h.title},
                                 {"body", h.body},
                                 {"state", h.state},
                                 {"labels", strings(h.labels)},
                                 {"url", h.url}});
  return json::object{{"total", s.total}, {"items", std::move(items)}};
}

json::object toJson(const std::vector<RepoLabel>& labels) {
  json::array out;
  for (const RepoLabel& l : labels)
    out.push_back(json::object{{"name", l.name}, {"description", l.description}, {"color", l.color}});
  return json::object{{"labels", std::move(out)}};
}

std::string filePathProblem(const std::string& path) {
  if (path.find('\0') != std::string::npos) return "contains a NUL byte";
  if (path.find('\\') != std::string::npos) return "contains a backslash";
  if (path.front() == '/') return "is absolute";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string_view part(path.data() + start, end - start);
    if (part.empty() || part == "." || part == "..") return "has an empty, '.' or '..' part";
    start = end + 1;
  }
  return "";
}

std::vector<std::string> githubReadToolNames() {
  return {tools::kGithubPull,  tools::kGithubPullsDiff,    tools::kGithubPullsFiles, tools::kGithubFile,
          tools::kGithubIssue, tools::kGithubIssuesSearch, tools::kGithubLabels};
}

std::vector<Tool> githubReadTools(std::shared_ptr<GithubReader> reader) {
  std::vector<Tool> tools;
  tools.push_back(makeTool(
      tools::kGithubPull, "The pull request: number, title, body, author, base and head commits, labels, draft.",
      objectSchema({}), [reader](const json::object&, ToolContext&) { return answer(reader->pull()); }));
  tools.push_back(
      makeTool(tools::kGithubPullsDiff,
               "The pull request's unified diff (base...head; on a synchronize after a review, only what changed "
               "since the reviewed head unless full is true). At most 1 MiB, cut at a file boundary.",
               fullFlagSchema(),
               [reader](const json::object& args, ToolContext&) { return answer(reader->diff(flag(args, "full"))); }));
  tools.push_back(makeTool(
      tools::kGithubPullsFiles,
      "The files the pull request changes, with status, additions, deletions and whether binary.", fullFlagSchema(),
      [reader](const json::object& args, ToolContext&) { return answer(reader->files(flag(args, "full"))); }));
  tools.push_back(fileTool(reader));
  tools.push_back(issueTool(reader));
  tools.push_back(searchTool(reader));
  tools.push_back(makeTool(tools::kGithubLabels, "The repository's labels: name, description, colour.",
                           objectSchema({}),
                           [reader](const json::object&, ToolContext&) { return answer(reader->labels()); }));
  return tools;
}

}  // namespace lw::bridge
