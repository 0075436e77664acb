#include "support/fake_github.h"
#include "support/fake_github_state.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <stdexcept>

#include <boost/json.hpp>

namespace lw::test {

FakeGithub::FakeGithub()
    : state_(std::make_unique<State>()),
      server_(
          "fake-github", [this](const LocalHttpServer::Request& r) { return answer(r); },
          [this] {
            state_->stopping = true;
            releaseHangs();
          }) {
  state_->port = server_.port();
}

FakeGithub::~FakeGithub() = default;

ReadModel& FakeGithub::reads() { return state_->reads; }

std::string FakeGithub::url() const { return "http://127.0.0.1:" + std::to_string(server_.port()); }

std::optional<LocalHttpServer::Response> FakeGithub::answer(const LocalHttpServer::Request& req) {
  Request rec;
  rec.method = req.method;
  rec.target = req.target;
  auto qpos = rec.target.find('?');
  rec.path = rec.target.substr(0, qpos);
  std::string query = qpos == std::string::npos ? "" : rec.target.substr(qpos + 1);
  rec.headers = req.headers;
  rec.body = req.body;

  Reply reply;
  bool hang = false;
  {
    std::unique_lock<std::mutex> lock(state_->mu);
    const Script* hit = nullptr;
    for (auto& s : state_->scripts) {
      if (s.times <= 0) continue;
      if (!s.method.empty() && s.method != rec.method) continue;
      if (rec.path.find(s.pathContains) == std::string::npos) continue;
      if (s.skip > 0) {
        --s.skip;
        continue;
      }
      --s.times;
      hit = &s;
      break;
    }
    auto routeIt = [&] {
      if (rec.path == "/graphql" && !rec.headers.count("authorization"))
        return message(401, "This endpoint requires you to be authenticated.");
      if (rec.headers["authorization"] != std::string("Bearer ") + kToken) return message(401, "Bad credentials");
      if (rec.headers["x-github-api-version"] != "2022-11-28") return message(400, "missing API version");
      json::value body;
      if (!rec.body.empty()) {
        boost::system::error_code jec;
        body = json::parse(rec.body, jec);
        if (jec) return message(400, "Problems parsing JSON");
      }
      try {
        return state_->route(rec.method, rec.path, parseQuery(query), rec.headers["accept"], body);
      } catch (const std::exception& e) {
        return unprocessable(std::string("Invalid request: ") + e.what());
      }
    };
    if (hit && hit->hang) {
      hang = true;
    } else if (hit) {
      if (hit->afterEffect) (void)routeIt();
      reply = {hit->status, hit->headers, hit->body};
    } else {
      reply = routeIt();
    }
    rec.status = hang ? 0 : reply.status;
    state_->log.push_back(rec);
    if (hang) {
      ++state_->hanging;
      state_->hangCv.wait(lock, [&] { return state_->released || state_->stopping.load(); });
      --state_->hanging;
    }
  }
  if (hang) return std::nullopt;
  return LocalHttpServer::Response{reply.status, reply.headers, reply.body};
}

void FakeGithub::addPull(int number, const std::string& headSha, const std::string& diff) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->pulls[number] = {headSha, diff, {}, {}};
}
void FakeGithub::setPullHeadRepo(int number, const std::string& headRepo) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->pulls.at(number).headRepo = headRepo;
}
void FakeGithub::movePullHead(int number, const std::string& headSha) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->pulls.at(number).headSha = headSha;
}
void FakeGithub::setPullBase(int number, const std::string& baseSha) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->pulls.at(number).baseSha = baseSha;
}
void FakeGithub::setPermission(const std::string& login, const std::string& permission) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->permissions[login] = permission;
}
void FakeGithub::setReadOnly(bool v) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->readOnly = v;
}
void FakeGithub::setInstallationToken(bool v) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->installation = v;
}
void FakeGithub::script(Script s) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->scripts.push_back(std::move(s));
}
void FakeGithub::releaseHangs() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->released = true;
  }
  state_->hangCv.notify_all();
}
int FakeGithub::hanging() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->hanging;
}
std::vector<FakeGithub::Request> FakeGithub::requests() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->log;
}
std::size_t FakeGithub::count(const std::string& method, const std::string& pathContains) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return static_cast<std::size_t>(std::count_if(state_->log.begin(), state_->log.end(), [&](const Request& r) {
    return (method.empty() || r.method == method) && r.path.find(pathContains) != std::string::npos;
  }));
}
void FakeGithub::clearRequests() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->log.clear();
}
void FakeGithub::addReviewComment(int pull, const std::string& login, const std::string& body, const std::string& path,
                                  int line) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->reviewComments[pull].push_back(json::object{{"id", state_->nextId++},
                                                      {"user", json::object{{"login", login}}},
                                                      {"body", body},
                                                      {"path", path},
                                                      {"line", line}});
}
void FakeGithub::markOutdated(int pull, std::int64_t commentId) {
  std::lock_guard<std::mutex> lock(state_->mu);
  for (auto& c : state_->reviewComments[pull]) {
    json::object& o = c.as_object();
    if (asInt(o.if_contains("id")) != commentId || !o.contains("line")) continue;
    o["original_line"] = o["line"];
    o["line"] = nullptr;
  }
}
std::int64_t FakeGithub::addReviewReply(int pull, const std::string& login, const std::string& body,
                                        std::int64_t inReplyTo) {
  std::lock_guard<std::mutex> lock(state_->mu);
  json::object reply{{"id", state_->nextId++},
                     {"user", json::object{{"login", login}}},
                     {"body", body},
                     {"in_reply_to_id", inReplyTo}};
  for (const auto& c : state_->reviewComments[pull])
    if (asInt(c.as_object().if_contains("id")) == inReplyTo)
      for (const char* k : {"path", "line"})
        if (c.as_object().contains(k)) reply[k] = c.at(k);
  state_->reviewComments[pull].push_back(reply);
  return reply.at("id").as_int64();
}
void FakeGithub::resolveThread(std::int64_t commentId) { setThreadResolved(commentId, true); }
void FakeGithub::unresolveThread(std::int64_t commentId) { setThreadResolved(commentId, false); }
void FakeGithub::setThreadResolved(std::int64_t commentId, bool resolved) {
  std::lock_guard<std::mutex> lock(state_->mu);
  for (const auto& [pull, list] : state_->reviewComments) {
    std::int64_t root = GraphqlModel::threadRoot(list, commentId);
    bool known = std::any_of(list.begin(), list.end(),
                             [&](const json::value& c) { return asInt(c.as_object().if_contains("id")) == root; });
    if (!known) continue;
    if (resolved)
      state_->graphql.resolvedThreads.insert(root);
    else
      state_->graphql.resolvedThreads.erase(root);
    return;
  }
  throw std::out_of_range("fake GitHub: no review comment " + std::to_string(commentId));
}
void FakeGithub::setGraphqlPageLimit(std::size_t threads) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->graphql.pageLimit = threads;
}
void FakeGithub::addIssueComment(int issue, const std::string& login, const std::string& body) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->issueComments[issue].push_back(json::object{{"id", state_->nextId++},
                                                      {"user", json::object{{"login", login}}},
                                                      {"body", body},
                                                      {"author_association", "NONE"},
                                                      {"created_at", "2024-01-01T00:00:00Z"}});
}
json::array FakeGithub::reviews(int pull) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  auto it = state_->reviews.find(pull);
  return it == state_->reviews.end() ? json::array{} : it->second;
}
json::array FakeGithub::reviewComments(int pull) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  auto it = state_->reviewComments.find(pull);
  return it == state_->reviewComments.end() ? json::array{} : it->second;
}
json::array FakeGithub::checkRuns() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->checkRuns;
}
json::array FakeGithub::annotations(std::int64_t id) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  auto it = state_->annotations.find(id);
  return it == state_->annotations.end() ? json::array{} : it->second;
}
json::array FakeGithub::issueComments(int issue) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  auto it = state_->issueComments.find(issue);
  return it == state_->issueComments.end() ? json::array{} : it->second;
}
std::vector<std::string> FakeGithub::issueLabels(int issue) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  auto it = state_->issueLabels.find(issue);
  return it == state_->issueLabels.end() ? std::vector<std::string>{} : it->second;
}
std::map<std::string, std::string> FakeGithub::repoLabels() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->labels;
}

}  // namespace lw::test
