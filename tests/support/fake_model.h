// A local fake of a model provider for the lane and breaker tests: an HTTP
// server on 127.0.0.1 (support/local_http_server.h) that answers OpenAI chat completions (…/chat/completions) and Anthropic
// messages (…/messages) with a valid completion, records every request, and
// fails on command: any status and body, an empty body, a delay (for client
// timeouts), or a connection closed without an answer.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "support/local_http_server.h"

namespace lw::test {

class FakeModel {
 public:
  FakeModel();
  ~FakeModel();
  FakeModel(const FakeModel&) = delete;
  FakeModel& operator=(const FakeModel&) = delete;

  // "http://127.0.0.1:<port>/v1": a lane's baseUrl.
  std::string url() const;

  struct Reply {
    int status = 200;
    std::string body;                    // empty: a valid completion for the path's API
    bool emptyBody = false;              // answer with no body at all
    std::chrono::milliseconds delay{0};  // before answering
    bool closeWithoutAnswer = false;

    static Reply withStatus(int status, std::string body = "") {
      Reply r;
      r.status = status;
      r.body = std::move(body);
      return r;
    }
    static Reply delayed(std::chrono::milliseconds d) {
      Reply r;
      r.delay = d;
      return r;
    }
    static Reply empty() {
      Reply r;
      r.emptyBody = true;
      return r;
    }
    static Reply closed() {
      Reply r;
      r.closeWithoutAnswer = true;
      return r;
    }
  };
  // The next `times` requests get `reply` (scripts queue in order); after
  // them, the default valid completion.
  void script(Reply reply, int times = 1);

  // Writes the text of every default completion from the request's JSON
  // body (a stand-in reviewer for the demo and the end-to-end tests);
  // without one the text is "fake completion N".
  using Responder = std::function<std::string(const boost::json::value& request)>;
  void respondWith(Responder responder);

  struct Request {
    std::string method;
    std::string path;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
  };
  std::vector<Request> requests() const;
  std::size_t count() const;

  struct State;

 private:
  std::optional<LocalHttpServer::Response> answer(const LocalHttpServer::Request& request);

  std::unique_ptr<State> state_;
  LocalHttpServer server_;  // after state_: it goes first, its handlers use state_
};

}  // namespace lw::test
