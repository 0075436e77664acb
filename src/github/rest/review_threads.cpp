#include "github/rest/review_threads.h"

#include <charconv>

#include <boost/json.hpp>

#include "core/json_fields.h"

namespace lw::github {

namespace json = boost::json;
using namespace json_fields;

namespace {

// 100 is the most `first` may ask of a connection (GitHub's node limits), so
// 100 threads a page and up to 100 comments a thread, oldest first. The
// comment id is fullDatabaseId: GitHub deprecated databaseId (a 32-bit
// GraphQL Int) because review comment ids outgrow it; fullDatabaseId is a
// BigInt, which GitHub's schema says it encodes as a string.
constexpr const char* kQuery =
    "query($owner: String!, $name: String!, $number: Int!, $cursor: String) {"
    " repository(owner: $owner, name: $name) {"
    " pullRequest(number: $number) {"
    " reviewThreads(first: 100, after: $cursor) {"
    " pageInfo { hasNextPage endCursor }"
    " nodes { isResolved comments(first: 100) { nodes { fullDatabaseId } } } } } } }";

// A bound so that an answer that always has a next page cannot loop us:
// 100,000 threads, far beyond any pull request.
constexpr int kMaxPages = 1000;

constexpr const char* kHint = "the token needs pull-requests: read";

// The REST id of a comment: a BigInt as GitHub documents it (a decimal
// string), or a plain integer.
std::int64_t restId(const json::value& v, const std::string& path) {
  std::int64_t id = 0;
  if (v.is_int64()) {
    id = v.get_int64();
  } else if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    id = static_cast<std::int64_t>(v.get_uint64());
  } else if (v.is_string()) {
    const json::string& s = v.get_string();
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
    if (ec != std::errc() || end != s.data() + s.size()) id = 0;
  }
  if (id <= 0) throw FieldError(path, "expected a comment id (a decimal string)");
  return id;
}

// Adds the ids of a resolved thread's comments; a comment without an id
// (the field is nullable) names nothing we could have posted.
void collectResolved(const json::object& thread, const std::string& path, std::set<std::int64_t>& out) {
  if (!boolean(thread, "isResolved", path)) return;
  const std::string commentsPath = join(path, "comments");
  const auto& comments = object(field(thread, "comments", path), commentsPath);
  const std::string nodesPath = join(commentsPath, "nodes");
  const auto& nodes = array(field(comments, "nodes", commentsPath), nodesPath);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].is_null()) continue;
    const std::string at = join(nodesPath, "[" + std::to_string(i) + "]");
    const auto& comment = object(nodes[i], at);
    if (const json::value* id = comment.if_contains("fullDatabaseId"); id && !id->is_null())
      out.insert(restId(*id, join(at, "fullDatabaseId")));
  }
}

std::optional<std::string> nextCursor(const json::object& pageInfo, const std::string& path) {
  if (!boolean(pageInfo, "hasNextPage", path)) return std::nullopt;
  auto cursor = optStr(pageInfo, "endCursor", path);
  if (!cursor) throw FieldError(join(path, "endCursor"), "required when hasNextPage is true");
  return cursor;
}

// GraphQL reports what went wrong in `errors`, often with HTTP 200 and
// sometimes beside partial data; any of it means the answer is not whole.
Error graphqlError(const json::value& errors) {
  std::string message = "GraphQL errors";
  if (errors.is_array() && !errors.get_array().empty()) {
    const json::value& first = errors.get_array().front();
    message = peekStr(first, "message").value_or("an error without a message");
    if (auto type = peekStr(first, "type")) message = *type + ": " + message;
    if (errors.get_array().size() > 1) message += " (and " + std::to_string(errors.get_array().size() - 1) + " more)";
  }
  return makeError(ErrorCode::PublicationFailed, "GraphQL: " + message, kHint);
}

const json::object& member(const json::object& o, const std::string& key, const std::string& path) {
  return object(field(o, key, path), join(path, key));
}

}  // namespace

std::string graphqlUrlFor(std::string_view apiUrl) {
  while (!apiUrl.empty() && apiUrl.back() == '/') apiUrl.remove_suffix(1);
  // GitHub Enterprise Server: REST under /api/v3, GraphQL at /api/graphql.
  constexpr std::string_view kServerRest = "/api/v3";
  if (apiUrl.size() >= kServerRest.size() && apiUrl.substr(apiUrl.size() - kServerRest.size()) == kServerRest)
    return std::string(apiUrl.substr(0, apiUrl.size() - kServerRest.size())) + "/api/graphql";
  return std::string(apiUrl) + "/graphql";
}

json::value reviewThreadsRequest(const RepoRef& repo, int number, const std::optional<std::string>& cursor) {
  json::object variables{{"owner", repo.owner}, {"name", repo.name}, {"number", number}};
  variables["cursor"] = cursor ? json::value(*cursor) : json::value(nullptr);
  return json::object{{"query", kQuery}, {"variables", std::move(variables)}};
}

Result<ReviewThreadsPage> readReviewThreadsPage(const json::value& answer) {
  try {
    const auto& root = object(answer, "");
    if (const json::value* errors = root.if_contains("errors"); errors && !errors->is_null())
      return graphqlError(*errors);
    const auto& data = member(root, "data", "");
    const auto& repository = member(data, "repository", "data");
    const auto& pull = member(repository, "pullRequest", "data.repository");
    const std::string threadsPath = "data.repository.pullRequest.reviewThreads";
    const auto& threads = member(pull, "reviewThreads", "data.repository.pullRequest");
    ReviewThreadsPage page;
    page.nextCursor = nextCursor(member(threads, "pageInfo", threadsPath), join(threadsPath, "pageInfo"));
    const std::string nodesPath = join(threadsPath, "nodes");
    const auto& nodes = array(field(threads, "nodes", threadsPath), nodesPath);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].is_null()) continue;  // GraphQL lists may hold nulls
      const std::string at = join(nodesPath, "[" + std::to_string(i) + "]");
      collectResolved(object(nodes[i], at), at, page.resolvedCommentIds);
    }
    return page;
  } catch (const FieldError& e) {
    Error err = makeError(ErrorCode::PublicationFailed, (e.path.empty() ? "$" : e.path) + ": " + e.what());
    err.location = Location{.file = {}, .line = 0, .column = 0, .path = e.path};
    return err;
  }
}

Result<std::set<std::int64_t>> resolvedThreadComments(RestClient& api, const RepoRef& repo, int number) {
  const std::string url = graphqlUrlFor(api.config().apiUrl);
  const std::string what =
      "POST " + url + " (review threads of " + repo.fullName() + "#" + std::to_string(number) + ")";
  std::set<std::int64_t> resolved;
  std::optional<std::string> cursor;
  for (int page = 0; page < kMaxPages; ++page) {
    auto r = api.postQuery(url, reviewThreadsRequest(repo, number, cursor));
    if (!r) return std::move(r).error();
    if (r->status / 100 != 2) return makeError(ErrorCode::PublicationFailed, what + ": " + describe(*r), kHint);
    auto read = readReviewThreadsPage(jsonBody(*r));
    if (!read) {
      Error e = std::move(read).error();
      e.message = what + ": " + e.message;
      return e;
    }
    resolved.merge(read->resolvedCommentIds);
    if (!read->nextCursor) return resolved;
    if (read->nextCursor == cursor)
      return makeError(ErrorCode::PublicationFailed, what + ": the next page's cursor is the current one");
    cursor = std::move(read->nextCursor);
  }
  return makeError(ErrorCode::PublicationFailed,
                   what + ": more than " + std::to_string(kMaxPages) + " pages of review threads");
}

}  // namespace lw::github
