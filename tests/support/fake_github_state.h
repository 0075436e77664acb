// The GitHub model behind FakeGithub: repository state, what each endpoint
// does, and the limits GitHub enforces. Only fake_github.cpp includes it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/fake_github.h"
#include "support/fake_github_graphql.h"
#include "support/fake_github_reads.h"

namespace lw::test {

namespace json = boost::json;

namespace fake_detail {

struct Reply {
  int status = 200;
  std::map<std::string, std::string> headers;
  std::string body;
};

inline Reply jsonReply(int status, const json::value& v) {
  return {status, {{"content-type", "application/json"}}, json::serialize(v)};
}
inline Reply message(int status, const std::string& m) { return jsonReply(status, json::object{{"message", m}}); }
inline Reply unprocessable(const std::string& m) { return message(422, m); }

inline std::map<std::string, std::string> parseQuery(const std::string& q) {
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos <= q.size() && !q.empty()) {
    auto amp = q.find('&', pos);
    std::string kv = q.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    auto eq = kv.find('=');
    std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    std::string dec;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '%' && i + 2 < v.size()) {
        dec += static_cast<char>(std::stoi(v.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        dec += v[i] == '+' ? ' ' : v[i];
      }
    }
    out[k] = dec;
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return out;
}

inline std::string decodePath(const std::string& s) { return parseQuery("x=" + s)["x"]; }

inline std::string encode(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The fake's own reading of a diff (kept apart from the code under test):
// "+++ b/path" then "@@ -a,b +c,d @@" headers give the new-side ranges.
inline std::map<std::string, std::vector<std::pair<int, int>>> hunkRanges(const std::string& diff) {
  std::map<std::string, std::vector<std::pair<int, int>>> out;
  std::string file;
  std::regex hunk(R"(^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@)");
  std::size_t pos = 0;
  while (pos < diff.size()) {
    auto nl = diff.find('\n', pos);
    std::string line = diff.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? diff.size() : nl + 1;
    std::smatch m;
    if (line.rfind("+++ b/", 0) == 0) {
      file = line.substr(6);
    } else if (std::regex_search(line, m, hunk)) {
      int start = std::stoi(m[1]);
      int count = m[2].matched ? std::stoi(m[2]) : 1;
      if (count > 0) out[file].push_back({start, start + count - 1});
    }
  }
  return out;
}

inline std::int64_t asInt(const json::value* v) {
  if (!v) return 0;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  return 0;
}

}  // namespace fake_detail

using namespace fake_detail;

struct FakeGithub::State {
  unsigned short port = 0;  // for the Link headers of paged answers
  std::atomic<bool> stopping{false};

  mutable std::mutex mu;
  std::condition_variable hangCv;
  bool released = false;
  int hanging = 0;

  bool readOnly = false;
  bool installation = false;
  std::vector<Script> scripts;
  std::vector<Request> log;
  std::int64_t nextId = 1000;

  struct Pull {
    std::string headSha;
    std::string diff;
    std::string headRepo;  // a fork's full name; empty: the base repository
    std::string baseSha;   // empty: made up from the head's
  };
  std::map<int, Pull> pulls;
  std::map<std::string, std::string> permissions;  // collaborator login -> permission
  std::map<int, json::array> reviews;              // by pull
  std::map<int, json::array> reviewComments;       // by pull
  json::array checkRuns;
  std::map<std::int64_t, json::array> annotations;
  std::map<int, json::array> issueComments;
  std::map<int, std::vector<std::string>> issueLabels;
  std::map<std::string, std::string> labels{{"bug", "d73a4a"}};
  ReadModel reads;       // the read endpoints' data (support/fake_github_reads.h)
  GraphqlModel graphql;  // resolved threads and the GraphQL page size (support/fake_github_graphql.h)

  std::string writer() const { return installation ? "github-actions[bot]" : kLogin; }
  json::object user() const { return json::object{{"login", writer()}, {"type", installation ? "Bot" : "User"}}; }

  Reply page(const json::array& all, const std::map<std::string, std::string>& q, const std::string& path,
             const std::string& key = "") {
    std::size_t per = 30, pg = 1;
    if (auto it = q.find("per_page"); it != q.end()) per = std::min<std::size_t>(100, std::stoul(it->second));
    if (auto it = q.find("page"); it != q.end()) pg = std::stoul(it->second);
    json::array items;
    for (std::size_t i = (pg - 1) * per; i < all.size() && i < pg * per; ++i) items.push_back(all[i]);
    Reply r =
        key.empty() ? jsonReply(200, items) : jsonReply(200, json::object{{"total_count", all.size()}, {key, items}});
    if (pg * per < all.size()) {
      std::string base = "http://127.0.0.1:" + std::to_string(port) + path + "?";
      for (const auto& [k, v] : q)
        if (k != "page") base += k + "=" + encode(v) + "&";
      r.headers["link"] = "<" + base + "page=" + std::to_string(pg + 1) + ">; rel=\"next\", <" + base +
                          "page=" + std::to_string((all.size() + per - 1) / per) + ">; rel=\"last\"";
    }
    return r;
  }

  // GitHub's shape: the legacy `permission` (maintain reads as write,
  // triage as read), the exact `role_name`, the user; 404 for a login that
  // is not a collaborator.
  Reply permission(const std::string& login) {
    auto it = permissions.find(login);
    if (it == permissions.end()) return message(404, "Not Found");
    const std::string& role = it->second;
    std::string legacy = role == "maintain" ? "write" : role == "triage" ? "read" : role;
    return jsonReply(200, json::object{{"permission", legacy},
                                       {"role_name", role},
                                       {"user", json::object{{"login", login}, {"type", "User"}}}});
  }

  // Validates one review comment against the pull's diff, as GitHub does.
  std::string commentProblem(const Pull& pull, const json::object& c) {
    auto ranges = hunkRanges(pull.diff);
    std::string path = c.contains("path") && c.at("path").is_string() ? std::string(c.at("path").get_string()) : "";
    int line = static_cast<int>(asInt(c.if_contains("line")));
    int start = static_cast<int>(asInt(c.if_contains("start_line")));
    auto it = ranges.find(path);
    if (it == ranges.end()) return "Path could not be resolved";
    for (const auto& [a, b] : it->second) {
      if (line < a || line > b) continue;
      if (start == 0) return "";
      if (start >= a && start < line) return "";
      return "pull_request_review_thread.start_line must be part of the same hunk as the line.";
    }
    return "pull_request_review_thread.line must be part of the diff";
  }

  Reply route(const std::string& method, const std::string& path, const std::map<std::string, std::string>& q,
              const std::string& accept, const json::value& body) {
    const std::string repo = std::string("/repos/") + kOwner + "/" + kRepo;
    std::smatch m;
    auto is = [&](const char* re) { return std::regex_match(path, m, std::regex(repo + re)); };
    // A query, not a write: a read-only token may ask it.
    if (method == "POST" && path == "/graphql") return graphqlReply(body);
    bool write = method != "GET";
    if (write && readOnly) return message(403, "Resource not accessible by integration");
    auto pager = [&](const json::array& all, const std::string& key) {
      Reply r = page(all, q, path, key);
      return ReadModel::Reply{r.status, r.headers, r.body};
    };
    if (auto r = reads.route(method, repo, path, q, accept, labels, pager)) return {r->status, r->headers, r->body};

    if (method == "GET" && path == "/user") {
      if (installation) return message(403, "Resource not accessible by integration");
      return jsonReply(200, user());
    }
    if (is(R"(/pulls/(\d+))") && method == "GET") {
      auto p = pulls.find(std::stoi(m[1]));
      if (p == pulls.end()) return message(404, "Not Found");
      if (accept == "application/vnd.github.diff") return {200, {{"content-type", "text/plain"}}, p->second.diff};
      std::string full = std::string(kOwner) + "/" + kRepo;
      json::object pr{
          {"number", p->first},
          {"head",
           json::object{{"sha", p->second.headSha},
                        {"repo", json::object{{"full_name", p->second.headRepo.empty() ? full : p->second.headRepo}}}}},
          {"base",
           json::object{{"sha", p->second.baseSha.empty() ? "b" + p->second.headSha.substr(1) : p->second.baseSha},
                        {"repo", json::object{{"full_name", full}}}}}};
      reads.decoratePull(p->first, pr);
      return jsonReply(200, pr);
    }
    if (is(R"(/collaborators/([^/]+)/permission)") && method == "GET") return permission(m[1]);
    if (is(R"(/pulls/(\d+)/comments)") && method == "GET") return page(reviewComments[std::stoi(m[1])], q, path);
    if (is(R"(/pulls/(\d+)/reviews)") && method == "GET") return page(reviews[std::stoi(m[1])], q, path);
    if (is(R"(/pulls/(\d+)/reviews)") && method == "POST") return createReview(std::stoi(m[1]), body);
    if (is(R"(/pulls/(\d+)/reviews/(\d+))") && method == "DELETE") {
      auto& list = reviews[std::stoi(m[1])];
      std::int64_t id = std::stoll(m[2]);
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (asInt(list[i].as_object().if_contains("id")) != id) continue;
        if (list[i].at("state") != "PENDING") return unprocessable("Can not delete a non-pending pull request review");
        json::value r = list[i];
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        auto& comments = reviewComments[std::stoi(m[1])];
        for (std::size_t k = comments.size(); k-- > 0;)
          if (asInt(comments[k].as_object().if_contains("pull_request_review_id")) == id)
            comments.erase(comments.begin() + static_cast<std::ptrdiff_t>(k));
        return jsonReply(200, r);
      }
      return message(404, "Not Found");
    }
    if (is(R"(/pulls/comments/(\d+))") && method == "PATCH") {
      for (auto& [pull, list] : reviewComments)
        for (auto& c : list)
          if (asInt(c.as_object().if_contains("id")) == std::stoll(m[1])) {
            c.as_object()["body"] = body.at("body");
            return jsonReply(200, c);
          }
      return message(404, "Not Found");
    }
    if (is(R"(/commits/([0-9a-f]+)/check-runs)") && method == "GET") {
      json::array found;
      for (const auto& r : checkRuns) {
        if (r.at("head_sha") != json::value(std::string(m[1]))) continue;
        if (q.count("check_name") && r.at("name") != json::value(q.at("check_name"))) continue;
        found.push_back(r);
      }
      return page(found, q, path, "check_runs");
    }
    if (is(R"(/check-runs)") && method == "POST") return createCheckRun(body);
    if (is(R"(/check-runs/(\d+))") && (method == "PATCH" || method == "GET")) {
      for (auto& r : checkRuns) {
        if (asInt(r.as_object().if_contains("id")) != std::stoll(m[1])) continue;
        if (method == "GET") return jsonReply(200, r);
        return updateCheckRun(r.as_object(), body);
      }
      return message(404, "Not Found");
    }
    if (is(R"(/check-runs/(\d+)/annotations)") && method == "GET") return page(annotations[std::stoll(m[1])], q, path);
    if (is(R"(/issues/(\d+)/labels)")) {
      auto& have = issueLabels[std::stoi(m[1])];
      if (method == "POST") {
        for (const auto& l : body.at("labels").as_array()) {
          std::string name(l.as_string());
          if (!labels.count(name)) labels[name] = "ededed";  // GitHub creates it with a default colour
          if (std::find(have.begin(), have.end(), name) == have.end()) have.push_back(name);
        }
      }
      json::array out;
      for (const auto& l : have) out.push_back(json::object{{"name", l}, {"color", labels[l]}});
      return method == "GET" ? page(out, q, path) : jsonReply(200, out);
    }
    if (is(R"(/labels/([^/]+))") && method == "GET") {
      std::string name = decodePath(m[1]);
      if (!labels.count(name)) return message(404, "Not Found");
      return jsonReply(200, json::object{{"name", name}, {"color", labels[name]}});
    }
    if (is(R"(/labels)") && method == "POST") {
      std::string name(body.at("name").as_string());
      std::string color(body.at("color").as_string());
      if (!std::regex_match(color, std::regex("[0-9a-fA-F]{6}"))) return unprocessable("Validation Failed: color");
      if (labels.count(name)) return unprocessable("Validation Failed: already_exists");
      labels[name] = color;
      return jsonReply(201, json::object{{"name", name}, {"color", color}});
    }
    if (is(R"(/issues/(\d+)/comments)")) {
      auto& list = issueComments[std::stoi(m[1])];
      if (method == "GET") return page(list, q, path);
      if (method == "POST") {
        json::object c{{"id", nextId++},
                       {"user", user()},
                       {"body", body.at("body")},
                       {"author_association", "NONE"},
                       {"created_at", "2024-01-01T00:00:00Z"}};
        list.push_back(c);
        return jsonReply(201, c);
      }
    }
    if (is(R"(/issues/comments/(\d+))") && method == "PATCH") {
      for (auto& [n, list] : issueComments)
        for (auto& c : list)
          if (asInt(c.as_object().if_contains("id")) == std::stoll(m[1])) {
            if (c.at("user").at("login") != json::value(writer())) return message(403, "Forbidden");
            c.as_object()["body"] = body.at("body");
            return jsonReply(200, c);
          }
      return message(404, "Not Found");
    }
    return message(404, "Not Found: " + method + " " + path);
  }

  Reply graphqlReply(const json::value& body) {
    auto r = graphql.answer(body, kOwner, kRepo, [this](int number) -> const json::array* {
      return pulls.count(number) ? &reviewComments[number] : nullptr;
    });
    return {r.status, {{"content-type", "application/json"}}, r.body};
  }

  Reply createReview(int number, const json::value& body) {
    auto p = pulls.find(number);
    if (p == pulls.end()) return message(404, "Not Found");
    const json::object& o = body.as_object();
    if (!o.contains("commit_id") || o.at("commit_id") != json::value(p->second.headSha))
      return unprocessable("commit_id is not part of the pull request");
    auto& list = reviews[number];
    bool pending = !o.contains("event");
    for (const auto& r : list)
      if (r.at("state") == "PENDING" && r.at("user").at("login") == json::value(writer()))
        return unprocessable("User can only have one pending review per pull request");
    json::array comments = o.contains("comments") ? o.at("comments").as_array() : json::array{};
    for (const auto& c : comments) {
      std::string problem = commentProblem(p->second, c.as_object());
      if (!problem.empty()) return unprocessable("Unprocessable Entity: " + problem);
    }
    std::int64_t id = nextId++;
    std::string event = pending ? "" : std::string(o.at("event").as_string());
    std::string state = pending                      ? "PENDING"
                        : event == "REQUEST_CHANGES" ? "CHANGES_REQUESTED"
                        : event == "APPROVE"         ? "APPROVED"
                                                     : "COMMENTED";
    json::object review{{"id", id},
                        {"user", user()},
                        {"body", o.contains("body") ? o.at("body") : json::value("")},
                        {"state", state},
                        {"commit_id", p->second.headSha}};
    list.push_back(review);
    for (const auto& c : comments) {
      json::object rc = c.as_object();
      rc["id"] = nextId++;
      rc["user"] = user();
      rc["pull_request_review_id"] = id;
      rc["commit_id"] = p->second.headSha;
      reviewComments[number].push_back(rc);
    }
    return jsonReply(200, review);
  }

  Reply checkOutput(const json::object& body, json::object& run) {
    const json::value* output = body.if_contains("output");
    if (!output) return {};
    const json::object& out = output->as_object();
    if (const json::value* s = out.if_contains("summary"); s && s->as_string().size() > 65535)
      return unprocessable("Invalid request. Only 65535 characters are allowed; 65536 were supplied.");
    if (const json::value* a = out.if_contains("annotations")) {
      if (a->as_array().size() > 50)
        return unprocessable("Invalid request. Only 50 annotations are allowed per request.");
      for (const auto& an : a->as_array())
        for (const char* k : {"path", "start_line", "end_line", "annotation_level", "message"})
          if (!an.as_object().contains(k)) return unprocessable(std::string("annotation without ") + k);
    }
    json::object& stored = run["output"].as_object();
    for (const char* k : {"title", "summary"})
      if (out.contains(k)) stored[k] = out.at(k);
    if (const json::value* a = out.if_contains("annotations")) {
      auto& list = annotations[asInt(run.if_contains("id"))];
      for (const auto& an : a->as_array()) list.push_back(an);
      stored["annotations_count"] = list.size();
    }
    return {0, {}, {}};
  }

  Reply createCheckRun(const json::value& body) {
    const json::object& o = body.as_object();
    for (const char* k : {"name", "head_sha"})
      if (!o.contains(k)) return unprocessable(std::string("Invalid request. \"") + k + "\" wasn't supplied.");
    json::object run{{"id", nextId++},
                     {"name", o.at("name")},
                     {"head_sha", o.at("head_sha")},
                     {"status", o.contains("status") ? o.at("status") : json::value("queued")},
                     {"conclusion", o.contains("conclusion") ? o.at("conclusion") : json::value(nullptr)},
                     {"external_id", o.contains("external_id") ? o.at("external_id") : json::value("")},
                     {"app", json::object{{"slug", "github-actions"}}},
                     {"output", json::object{{"annotations_count", 0}}}};
    Reply bad = checkOutput(o, run);
    if (bad.status) return bad;
    checkRuns.push_back(run);
    return jsonReply(201, run);
  }

  Reply updateCheckRun(json::object& run, const json::value& body) {
    const json::object& o = body.as_object();
    if (o.contains("status") && o.at("status") == "completed" && !o.contains("conclusion"))
      return unprocessable("Invalid request. \"conclusion\" wasn't supplied.");
    Reply bad = checkOutput(o, run);
    if (bad.status) return bad;
    for (const char* k : {"status", "conclusion"})
      if (o.contains(k)) run[k] = o.at(k);
    return jsonReply(200, run);
  }
};

}  // namespace lw::test
