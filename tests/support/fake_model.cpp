#include "support/fake_model.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

#include <boost/json.hpp>

namespace lw::test {

namespace json = boost::json;

struct FakeModel::State {
  std::atomic<bool> stopping{false};
  mutable std::mutex mu;
  std::condition_variable stopCv;
  std::deque<Reply> scripts;
  Responder responder;
  std::vector<Request> log;
  int served = 0;
};

namespace {

std::string defaultBody(const std::string& path, int n, const std::string& model, std::string text) {
  if (path.ends_with("/messages"))
    return json::serialize(json::object{{"id", "msg_" + std::to_string(n)},
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
      {"choices", json::array{json::object{{"index", 0},
                                           {"message", json::object{{"role", "assistant"}, {"content", text}}},
                                           {"finish_reason", "stop"}}}},
      {"usage", json::object{{"prompt_tokens", 11}, {"completion_tokens", 7}}}});
}

}  // namespace

FakeModel::FakeModel()
    : state_(std::make_unique<State>()),
      server_(
          "fake-model", [this](const LocalHttpServer::Request& r) { return answer(r); },
          [this] {
            state_->stopping = true;
            state_->stopCv.notify_all();
          }) {}

FakeModel::~FakeModel() = default;

std::string FakeModel::url() const { return "http://127.0.0.1:" + std::to_string(server_.port()) + "/v1"; }

void FakeModel::respondWith(Responder responder) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->responder = std::move(responder);
}

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

std::optional<LocalHttpServer::Response> FakeModel::answer(const LocalHttpServer::Request& req) {
  Request rec{req.method, req.target, req.headers, req.body};
  std::string model = "unknown";
  boost::system::error_code jec;
  json::value body = json::parse(rec.body, jec);
  if (!jec && body.is_object())
    if (const json::value* m = body.as_object().if_contains("model"); m && m->is_string())
      model = std::string(m->get_string());
  Reply reply;
  Responder responder;
  int n = 0;
  {
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->log.push_back(rec);
    n = ++state_->served;
    responder = state_->responder;
    if (!state_->scripts.empty()) {
      reply = state_->scripts.front();
      state_->scripts.pop_front();
    }
    if (reply.delay.count() > 0) state_->stopCv.wait_for(lock, reply.delay, [&] { return state_->stopping.load(); });
  }
  if (reply.closeWithoutAnswer) return std::nullopt;
  LocalHttpServer::Response res;
  res.status = reply.status;
  res.headers["content-type"] = "application/json";
  if (!reply.emptyBody)
    res.body = !reply.body.empty()   ? reply.body
               : reply.status == 200 ? defaultBody(rec.path, n, model,
                                                   responder ? responder(body) : "fake completion " + std::to_string(n))
                                     : R"({"error":{"type":"scripted_failure","message":"scripted"}})";
  return res;
}

}  // namespace lw::test
