// The GraphQL endpoint of the fake GitHub (POST /graphql) for the one query
// loopwright sends: a pull request's review threads and whether a person
// resolved them (src/github/rest/review_threads.h). A thread is a top-level review
// comment with the replies that lead to it through in_reply_to_id, oldest
// first, as GitHub lists them over REST. The fake parses no GraphQL: it finds
// the query's arguments by pattern, answers only the fields the query names,
// and checks what GitHub checks of such a query, answering as GitHub does
// (HTTP 200 with `errors`): a `query` string, a `variables` object, variables
// declared with their types and given values of them, `first` within 1-100
// on each connection, an `after` cursor it gave out. State lives in
// FakeGithub::State; this header knows only threads and the query.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/fake_github_reads.h"

namespace lw::test {

struct GraphqlModel {
  struct Reply {
    int status = 200;
    std::string body;
  };
  // The pull's review comments in GitHub's REST shape, or nullptr when there
  // is no such pull request.
  using CommentsOf = std::function<const boost::json::array*(int number)>;

  std::set<std::int64_t> resolvedThreads;  // the first comment's id of each resolved thread
  // The most threads one answer holds whatever `first` asks, so that a test
  // sees paging without seeding a hundred threads.
  std::size_t pageLimit = 100;

  // The first comment of the thread of review comment `id`.
  static std::int64_t threadRoot(const boost::json::array& comments, std::int64_t id) {
    for (std::size_t hop = 0; hop <= comments.size(); ++hop) {  // bounded: a cycle ends too
      const boost::json::object* c = find(comments, id);
      const boost::json::value* parent = c ? c->if_contains("in_reply_to_id") : nullptr;
      if (!parent || parent->is_null()) return id;
      id = boost::json::value_to<std::int64_t>(*parent);
    }
    return id;
  }

  Reply answer(const boost::json::value& body, const std::string& owner, const std::string& repo,
               const CommentsOf& commentsOf) const {
    const boost::json::object* request = body.if_object();
    const boost::json::value* query = request ? request->if_contains("query") : nullptr;
    if (!query || !query->is_string()) return error("A query attribute must be specified and must be a string.");
    static const boost::json::object kNone;
    const boost::json::value* vars = request->if_contains("variables");
    if (vars && !vars->is_null() && !vars->is_object()) return error("Variables are invalid JSON.");
    Query q(std::string(query->get_string()), vars && vars->is_object() ? vars->get_object() : kNone);
    if (!q.bind()) return error(q.problem);
    if (q.owner != owner || q.name != repo)
      return notFound("repository", "Could not resolve to a Repository with the name '" + q.owner + "/" + q.name + "'.",
                      boost::json::object{{"repository", nullptr}});
    const boost::json::array* comments = commentsOf(static_cast<int>(q.number));
    if (!comments)
      return notFound("pullRequest",
                      "Could not resolve to a PullRequest with the number of " + std::to_string(q.number) + ".",
                      boost::json::object{{"repository", boost::json::object{{"pullRequest", nullptr}}}});
    return threadsPage(q, *comments);
  }

 private:
  // What the query asks, found by pattern, with its variables' values.
  struct Query {
    Query(std::string query, const boost::json::object& values) : text(std::move(query)), variables(values) {}

    std::string text;
    const boost::json::object& variables;
    std::string problem;
    std::string owner, name;
    std::int64_t number = 0;
    std::optional<std::string> after;
    std::size_t threadsFirst = 0, commentsFirst = 0;

    bool selects(const std::string& field) const { return std::regex_search(text, std::regex("\\b" + field + "\\b")); }

    std::optional<std::string> arguments(const std::string& field) const {
      std::smatch m;
      if (!std::regex_search(text, m, std::regex("\\b" + field + R"(\s*\(([^)]*)\))"))) return std::nullopt;
      return m[1].str();
    }

    // The value of the variable an argument names (`owner: $owner`); false
    // with `problem` set when it is not a variable or not of its type.
    bool variable(const std::string& args, const std::string& argument, const std::string& type,
                  const boost::json::value*& value) {
      std::smatch m;
      if (!std::regex_search(args, m, std::regex("\\b" + argument + R"(\s*:\s*\$(\w+))"))) {
        problem = "fake GitHub: `" + argument + "` must be given as a variable";
        return false;
      }
      const std::string var = m[1].str();
      std::smatch d;
      if (!std::regex_search(text, d, std::regex("\\$" + var + R"(\s*:\s*(\w+!?))"))) {
        problem = "Variable $" + var + " is used by anonymous query but not declared";
        return false;
      }
      value = variables.if_contains(var);
      const bool isNull = !value || value->is_null();
      const bool fits =
          isNull ? type.back() != '!' : (type.rfind("Int", 0) == 0 ? value->is_int64() : value->is_string());
      if (d[1].str() != type || !fits) {
        problem = "Variable $" + var + " of type " + d[1].str() + " was provided invalid value";
        return false;
      }
      if (isNull) value = nullptr;
      return true;
    }

    // `first` of a connection: GitHub requires one, from 1 to 100.
    bool first(const std::string& args, const std::string& connection, std::size_t& out) {
      std::smatch m;
      if (!std::regex_search(args, m, std::regex(R"(\bfirst\s*:\s*(\d+))"))) {
        problem =
            "You must provide a `first` or `last` value to properly paginate the `" + connection + "` connection.";
        return false;
      }
      out = std::stoul(m[1].str());
      if (out < 1 || out > 100) {
        problem = "Requesting " + m[1].str() + " records on the `" + connection +
                  "` connection exceeds the `first` limit of 100 records.";
        return false;
      }
      return true;
    }

    bool bind() {
      auto repository = arguments("repository"), pull = arguments("pullRequest"), threads = arguments("reviewThreads"),
           comments = arguments("comments");
      if (!repository || !pull || !threads || !comments) {
        problem = "fake GitHub: only the review-threads query is answered";
        return false;
      }
      const boost::json::value *o = nullptr, *n = nullptr, *num = nullptr, *cursor = nullptr;
      if (!variable(*repository, "owner", "String!", o) || !variable(*repository, "name", "String!", n) ||
          !variable(*pull, "number", "Int!", num) || !variable(*threads, "after", "String", cursor) ||
          !first(*threads, "reviewThreads", threadsFirst) || !first(*comments, "comments", commentsFirst))
        return false;
      owner = o->get_string();
      name = n->get_string();
      number = num->get_int64();
      if (cursor) after = std::string(cursor->get_string());
      return true;
    }
  };

  static const boost::json::object* find(const boost::json::array& comments, std::int64_t id) {
    for (const auto& c : comments)
      if (const auto* o = c.if_object();
          o && o->contains("id") && boost::json::value_to<std::int64_t>(o->at("id")) == id)
        return o;
    return nullptr;
  }

  // Opaque to the client, as GitHub's are: the thread's first comment id.
  static std::string cursorFor(std::int64_t root) { return ReadModel::base64("cursor:v2:" + std::to_string(root)); }

  static Reply reply(const boost::json::value& v) { return {200, boost::json::serialize(v)}; }
  static Reply error(const std::string& message) {
    return reply(boost::json::object{{"errors", boost::json::array{boost::json::object{{"message", message}}}}});
  }
  static Reply notFound(const std::string& field, const std::string& message, boost::json::object data) {
    boost::json::object e{{"type", "NOT_FOUND"}, {"path", boost::json::array{"repository"}}, {"message", message}};
    if (field != "repository") e["path"].as_array().push_back(boost::json::value(field));
    return reply(boost::json::object{{"data", std::move(data)}, {"errors", boost::json::array{e}}});
  }

  // Thread roots in order, each with its comments (ids, oldest first).
  static std::map<std::int64_t, std::vector<std::int64_t>> threads(const boost::json::array& comments) {
    std::map<std::int64_t, std::vector<std::int64_t>> out;
    std::set<std::int64_t> ids;
    for (const auto& c : comments) ids.insert(boost::json::value_to<std::int64_t>(c.at("id")));
    for (std::int64_t id : ids) out[threadRoot(comments, id)].push_back(id);
    return out;
  }

  Reply threadsPage(const Query& q, const boost::json::array& comments) const {
    auto all = threads(comments);
    auto it = all.begin();
    if (q.after) {
      while (it != all.end() && cursorFor(it->first) != *q.after) ++it;
      if (it == all.end()) return error("`" + *q.after + "` does not appear to be a valid cursor.");
      ++it;
    }
    boost::json::array nodes;
    std::optional<std::int64_t> last;
    for (; it != all.end() && nodes.size() < std::min(q.threadsFirst, pageLimit); ++it) {
      nodes.push_back(threadNode(q, it->first, it->second));
      last = it->first;
    }
    boost::json::object pageInfo;
    if (q.selects("hasNextPage")) pageInfo["hasNextPage"] = it != all.end();
    if (q.selects("endCursor")) pageInfo["endCursor"] = last ? boost::json::value(cursorFor(*last)) : nullptr;
    boost::json::object connection{{"nodes", std::move(nodes)}};
    if (q.selects("pageInfo")) connection["pageInfo"] = std::move(pageInfo);
    return reply(
        boost::json::object{{"data", {{"repository", {{"pullRequest", {{"reviewThreads", std::move(connection)}}}}}}}});
  }

  boost::json::object threadNode(const Query& q, std::int64_t root, const std::vector<std::int64_t>& ids) const {
    boost::json::array commentNodes;
    for (std::size_t i = 0; i < ids.size() && i < q.commentsFirst; ++i) {
      boost::json::object c;
      if (q.selects("fullDatabaseId")) c["fullDatabaseId"] = std::to_string(ids[i]);  // BigInt: a string
      if (q.selects("databaseId")) c["databaseId"] = ids[i];
      commentNodes.push_back(std::move(c));
    }
    boost::json::object thread{{"comments", boost::json::object{{"nodes", std::move(commentNodes)}}}};
    if (q.selects("isResolved")) thread["isResolved"] = resolvedThreads.count(root) > 0;
    return thread;
  }
};

}  // namespace lw::test
