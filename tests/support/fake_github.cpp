#include "support/fake_github.h"
#include "support/fake_github_state.h"

#include <algorithm>
#include <cctype>
#include <atomic>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

namespace lw::test {

namespace beast = boost::beast;
namespace http = beast::http;

FakeGithub::FakeGithub() : state_(std::make_unique<State>()) {
  tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
  state_->acceptor.open(ep.protocol());
  state_->acceptor.set_option(asio::socket_base::reuse_address(true));
  state_->acceptor.bind(ep);
  state_->acceptor.listen();
  state_->port = state_->acceptor.local_endpoint().port();
  acceptor_ = std::thread([this] { acceptLoop(); });
}

FakeGithub::~FakeGithub() {
  state_->stopping = true;
  releaseHangs();
  {
    // Wake the blocking accept with a connection of our own.
    boost::system::error_code ec;
    asio::io_context io;
    tcp::socket s(io);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), state_->port), ec);
  }
  acceptor_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    for (auto& s : state_->sockets) {
      boost::system::error_code ec;
      s->shutdown(tcp::socket::shutdown_both, ec);
    }
    threads.swap(state_->connections);
  }
  for (auto& t : threads) t.join();
}

std::string FakeGithub::url() const { return "http://127.0.0.1:" + std::to_string(state_->port); }

void FakeGithub::acceptLoop() {
  for (;;) {
    auto sock = std::make_shared<tcp::socket>(state_->io);
    boost::system::error_code ec;
    state_->acceptor.accept(*sock, ec);
    if (state_->stopping) return;
    if (ec) continue;
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->sockets.push_back(sock);
    state_->connections.emplace_back([this, sock] { serve(sock.get()); });
  }
}

void FakeGithub::serve(void* raw) {
  tcp::socket& sock = *static_cast<tcp::socket*>(raw);
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    boost::system::error_code ec;
    http::read(sock, buffer, req, ec);
    if (ec) return;

    Request rec;
    rec.method = std::string(req.method_string());
    rec.target = std::string(req.target());
    auto qpos = rec.target.find('?');
    rec.path = rec.target.substr(0, qpos);
    std::string query = qpos == std::string::npos ? "" : rec.target.substr(qpos + 1);
    for (const auto& f : req) {
      std::string name(f.name_string());
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      rec.headers[name] = std::string(f.value());
    }
    rec.body = req.body();

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
    if (hang) {
      boost::system::error_code ignore;
      sock.shutdown(tcp::socket::shutdown_both, ignore);
      return;
    }
    http::response<http::string_body> res{static_cast<http::status>(reply.status), req.version()};
    res.set(http::field::server, "fake-github");
    for (const auto& [k, v] : reply.headers) res.set(k, v);
    res.body() = reply.body;
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    http::write(sock, res, ec);
    if (ec || !req.keep_alive()) {
      boost::system::error_code ignore;
      sock.shutdown(tcp::socket::shutdown_send, ignore);
      return;
    }
  }
}

void FakeGithub::addPull(int number, const std::string& headSha, const std::string& diff) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->pulls[number] = {headSha, diff};
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
void FakeGithub::addReviewComment(int pull, const std::string& login, const std::string& body,
                                  const std::string& path, int line) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->reviewComments[pull].push_back(json::object{{"id", state_->nextId++},
                                                      {"user", json::object{{"login", login}}},
                                                      {"body", body},
                                                      {"path", path},
                                                      {"line", line}});
}
void FakeGithub::addIssueComment(int issue, const std::string& login, const std::string& body) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->issueComments[issue].push_back(
      json::object{{"id", state_->nextId++}, {"user", json::object{{"login", login}}}, {"body", body}});
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
