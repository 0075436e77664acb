#include "support/fake_model.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

namespace lw::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using tcp = asio::ip::tcp;

struct FakeModel::State {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  unsigned short port = 0;
  std::atomic<bool> stopping{false};
  mutable std::mutex mu;
  std::condition_variable stopCv;
  std::deque<Reply> scripts;
  std::vector<Request> log;
  std::vector<std::shared_ptr<tcp::socket>> sockets;
  std::vector<std::thread> connections;
  int served = 0;
};

namespace {

std::string defaultBody(const std::string& path, int n, const std::string& model) {
  std::string text = "fake completion " + std::to_string(n);
  if (path.ends_with("/messages"))
    return json::serialize(json::object{
        {"id", "msg_" + std::to_string(n)},
        {"type", "message"},
        {"role", "assistant"},
        {"model", model},
        {"content", json::array{json::object{{"type", "text"}, {"text", text}}}},
        {"stop_reason", "end_turn"},
        {"usage", json::object{{"input_tokens", 11}, {"output_tokens", 7}}}});
  return json::serialize(json::object{
      {"id", "chatcmpl-" + std::to_string(n)},
      {"object", "chat.completion"},
      {"model", model},
      {"choices", json::array{json::object{
                      {"index", 0},
                      {"message", json::object{{"role", "assistant"}, {"content", text}}},
                      {"finish_reason", "stop"}}}},
      {"usage", json::object{{"prompt_tokens", 11}, {"completion_tokens", 7}}}});
}

}  // namespace

FakeModel::FakeModel() : state_(std::make_unique<State>()) {
  tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
  state_->acceptor.open(ep.protocol());
  state_->acceptor.set_option(asio::socket_base::reuse_address(true));
  state_->acceptor.bind(ep);
  state_->acceptor.listen();
  state_->port = state_->acceptor.local_endpoint().port();
  acceptor_ = std::thread([this] { acceptLoop(); });
}

FakeModel::~FakeModel() {
  state_->stopping = true;
  state_->stopCv.notify_all();
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

std::string FakeModel::url() const { return "http://127.0.0.1:" + std::to_string(state_->port) + "/v1"; }

void FakeModel::script(Reply reply, int times) {
  std::lock_guard<std::mutex> lock(state_->mu);
  for (int i = 0; i < times; ++i) state_->scripts.push_back(reply);
}

std::vector<FakeModel::Request> FakeModel::requests() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->log;
}

std::size_t FakeModel::count() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->log.size();
}

void FakeModel::acceptLoop() {
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

void FakeModel::serve(void* raw) {
  tcp::socket& sock = *static_cast<tcp::socket*>(raw);
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    boost::system::error_code ec;
    http::read(sock, buffer, req, ec);
    if (ec) return;
    Request rec;
    rec.method = std::string(req.method_string());
    rec.path = std::string(req.target());
    for (const auto& f : req) {
      std::string name(f.name_string());
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      rec.headers[name] = std::string(f.value());
    }
    rec.body = req.body();
    std::string model = "unknown";
    {
      boost::system::error_code jec;
      json::value v = json::parse(rec.body, jec);
      if (!jec && v.is_object())
        if (const json::value* m = v.as_object().if_contains("model"); m && m->is_string())
          model = std::string(m->get_string());
    }
    Reply reply;
    int n = 0;
    {
      std::unique_lock<std::mutex> lock(state_->mu);
      state_->log.push_back(rec);
      n = ++state_->served;
      if (!state_->scripts.empty()) {
        reply = state_->scripts.front();
        state_->scripts.pop_front();
      }
      if (reply.delay.count() > 0)
        state_->stopCv.wait_for(lock, reply.delay, [&] { return state_->stopping.load(); });
    }
    if (reply.closeWithoutAnswer || state_->stopping) {
      boost::system::error_code ignore;
      sock.shutdown(tcp::socket::shutdown_both, ignore);
      return;
    }
    http::response<http::string_body> res{static_cast<http::status>(reply.status), req.version()};
    res.set(http::field::server, "fake-model");
    res.set(http::field::content_type, "application/json");
    if (!reply.emptyBody)
      res.body() = !reply.body.empty() ? reply.body
                   : reply.status == 200 ? defaultBody(rec.path, n, model)
                                         : R"({"error":{"type":"scripted_failure","message":"scripted"}})";
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

}  // namespace lw::test
