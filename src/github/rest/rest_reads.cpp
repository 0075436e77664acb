#include "github/rest/rest_reads.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include <boost/json.hpp>

#include "core/ascii.h"
#include "github/rest/read_shapes.h"
#include "github/rest/url_paths.h"

namespace lw::github {

namespace json = boost::json;

namespace {

constexpr const char* kPullsHint = "the token needs pull-requests: read (contents: read for compare)";
constexpr const char* kContentsHint = "the token needs contents: read";
constexpr const char* kIssuesHint = "the token needs issues: read";
constexpr const char* kRawMedia = "application/vnd.github.raw";

}  // namespace

Error readError(const std::string& what, const HttpResponse& r, const std::string& hint) {
  std::string why = what + ": " + describe(r);
  switch (r.status) {
    case 404: return notFound(what);
    case 401:
    case 403: return makeError(ErrorCode::IoError, why, hint);
    case 406:
      return makeError(ErrorCode::IoError, why + ": too large for GitHub to render",
                       "the local clone serves large diffs: run after actions/checkout with fetch-depth: 0");
    case 422: return makeError(ErrorCode::UsageError, why, "check the arguments against GitHub's documentation");
    default: return makeError(ErrorCode::IoError, why);
  }
}

Result<std::string> scopedSearchQuery(const RepoRef& repo, const std::string& words) {
  std::istringstream in(words);
  for (std::string token; in >> token;) {
    std::string t = asciiLowered(token);
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.erase(0, 1);
    for (const char* q : {"repo:", "org:", "user:"})
      if (t.starts_with(q))
        return makeError(ErrorCode::UsageError, "the query may not carry '" + token + "'",
                         "the bridge searches this repository only; give the words (and qualifiers "
                         "such as is:issue or label:bug)");
  }
  return "repo:" + repo.fullName() + " " + words;
}

RestReads::RestReads(RestClient& api, const WallClock& clock, Sleeper& sleeper, SearchLimiter& limiter, RepoRef repo,
                     ReadLimits limits)
    : api_(api), clock_(clock), sleeper_(sleeper), limiter_(limiter), repo_(std::move(repo)), limits_(limits) {}

std::string RestReads::repoPath() const { return "/repos/" + repo_.owner + "/" + repo_.name; }

Result<HttpResponse> RestReads::getOk(const std::string& path, const std::string& what, const std::string& hint,
                                      const std::string& accept) {
  auto r = api_.get(path, accept);
  if (!r) return std::move(r).error();
  if (r->status / 100 != 2) return readError(what, *r, hint);
  return r;
}

Result<json::array> RestReads::pages(const std::string& path, const std::string& what, const std::string& hint,
                                     std::size_t maxItems, bool& truncated) {
  json::array all;
  truncated = false;
  std::string next = path + (path.find('?') == std::string::npos ? "?" : "&") + "per_page=100";
  while (!next.empty()) {
    auto r = getOk(next, what, hint);
    if (!r) return std::move(r).error();
    json::value v = jsonBody(*r);
    if (!v.is_array()) return makeError(ErrorCode::IoError, what + ": GitHub's answer is not a list");
    for (auto& item : v.as_array()) {
      if (all.size() == maxItems) {
        truncated = true;
        return all;
      }
      all.push_back(std::move(item));
    }
    next = nextPageUrl(r->header("link"));
    // Stop before asking for a page whose items could not be kept.
    if (!next.empty() && all.size() == maxItems) {
      truncated = true;
      return all;
    }
  }
  return all;
}

Result<PullSummary> RestReads::pull(int number) {
  std::string path = repoPath() + "/pulls/" + std::to_string(number);
  auto r = getOk(path, "pull request #" + std::to_string(number), kPullsHint);
  if (!r) return std::move(r).error();
  return pullFromJson(jsonBody(*r));
}

Result<PullDiff> RestReads::diff(int number, const DiffScope& scope) {
  std::string path = scope.incremental ? repoPath() + "/compare/" + scope.base + "..." + scope.head
                                       : repoPath() + "/pulls/" + std::to_string(number);
  auto r = getOk(path, "the diff of " + scope.base + "..." + scope.head, kPullsHint, kDiffMedia);
  if (!r) return std::move(r).error();
  PullDiff out;
  out.scope = scope;
  std::tie(out.diff, out.truncated) = clipUnifiedDiff(std::move(r->body), limits_.diffBytes);
  return out;
}

Result<PullFiles> RestReads::files(int number, const DiffScope& scope) {
  PullFiles out;
  out.scope = scope;
  json::array list;
  if (scope.incremental) {
    std::string what = "the files of " + scope.base + "..." + scope.head;
    auto r = getOk(repoPath() + "/compare/" + scope.base + "..." + scope.head, what, kPullsHint);
    if (!r) return std::move(r).error();
    json::value v = jsonBody(*r);
    const json::value* files = v.is_object() ? v.as_object().if_contains("files") : nullptr;
    if (files && files->is_array()) list = files->as_array();
    // compare lists at most 300 files (docs: "Compare two commits").
    out.truncated = list.size() >= 300;
  } else {
    auto all =
        pages(repoPath() + "/pulls/" + std::to_string(number) + "/files",
              "the files of pull request #" + std::to_string(number), kPullsHint, limits_.maxFiles, out.truncated);
    if (!all) return std::move(all).error();
    list = std::move(*all);
    // GitHub lists at most 3000 files however many there are.
    out.truncated = out.truncated || list.size() >= 3000;
  }
  if (list.size() > limits_.maxFiles) {
    list.resize(limits_.maxFiles);
    out.truncated = true;
  }
  auto files = filesFromJson(list);
  if (!files) return std::move(files).error();
  out.files = std::move(*files);
  return out;
}

Result<FileAtRef> RestReads::file(const std::string& commit, const std::string& path, TreeSide side) {
  std::string what = path + " at " + std::string(toString(side)) + " (" +
                     (commit.empty() ? std::string("the default branch") : commit.substr(0, 12)) + ")";
  std::string url =
      repoPath() + "/contents/" + urlEncodePath(path) + (commit.empty() ? "" : "?ref=" + urlEncode(commit));
  auto meta = getOk(url, what, kContentsHint);
  if (!meta) return std::move(meta).error();
  json::value v = jsonBody(*meta);
  // A directory answers a list; a submodule or symlink an object of that type.
  if (!v.is_object() || v.as_object().if_contains("type") == nullptr || v.at("type") != "file")
    return notFound(what + ": not a file");
  FileAtRef out;
  out.path = path;
  out.side = side;
  const json::object& o = v.as_object();
  if (const json::value* sha = o.if_contains("sha"); sha && sha->is_string()) out.sha = sha->as_string();
  if (const json::value* size = o.if_contains("size"); size && size->is_int64())
    out.size = static_cast<std::uint64_t>(size->as_int64());
  auto raw = getOk(url, what, kContentsHint, kRawMedia);
  if (!raw) return std::move(raw).error();
  out.truncated = raw->body.size() > limits_.fileBytes;
  out.content = clipUtf8(std::move(raw->body), limits_.fileBytes);
  if (isBinaryContent(out.content)) {
    out.binary = true;
    out.content.clear();
  }
  return out;
}

Result<IssueThread> RestReads::issue(int number) {
  std::string what = "issue #" + std::to_string(number);
  std::string path = repoPath() + "/issues/" + std::to_string(number);
  auto r = getOk(path, what, kIssuesHint);
  if (!r) return std::move(r).error();
  bool truncated = false;
  auto comments = pages(path + "/comments", "the comments of " + what, kIssuesHint, limits_.maxComments, truncated);
  if (!comments) return std::move(comments).error();
  auto thread = issueFromJson(jsonBody(*r), *comments);
  if (!thread) return std::move(thread).error();
  thread->commentsTruncated = truncated;
  return thread;
}

Result<IssueSearch> RestReads::search(const std::string& words, int maxResults) {
  auto q = scopedSearchQuery(repo_, words);
  if (!q) return std::move(q).error();
  int per = std::clamp(maxResults, 1, std::min(100, limits_.maxSearchResults));
  if (auto wait = limiter_.reserve(clock_.now()); wait.count() > 0) sleeper_.sleepFor(wait);
  auto r = getOk("/search/issues?q=" + urlEncode(*q) + "&per_page=" + std::to_string(per), "search '" + words + "'",
                 kIssuesHint);
  if (!r) return std::move(r).error();
  return searchFromJson(jsonBody(*r));
}

Result<std::vector<RepoLabel>> RestReads::labels() {
  bool truncated = false;
  auto all = pages(repoPath() + "/labels", "the labels of " + repo_.fullName(), kIssuesHint, 1000, truncated);
  if (!all) return std::move(all).error();
  return labelsFromJson(*all);
}

Result<bool> RestReads::isAncestor(const std::string& ancestor, const std::string& descendant) {
  auto r = getOk(repoPath() + "/compare/" + ancestor + "..." + descendant, "compare " + ancestor + "..." + descendant,
                 kContentsHint);
  if (!r) return std::move(r).error();
  json::value v = jsonBody(*r);
  const json::value* status = v.is_object() ? v.as_object().if_contains("status") : nullptr;
  if (!status || !status->is_string()) return makeError(ErrorCode::IoError, "compare: no status in GitHub's answer");
  return *status == "ahead" || *status == "identical";
}

}  // namespace lw::github
