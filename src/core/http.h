// The one HTTP layer of the project: requests and responses as values and a
// transport interface that the GitHub client, the Docker engine client and
// the model lanes share. libcurl in production (core/http_curl.h), under the
// hardening policy of core/http_policy.h; scripted fakes in tests.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lw::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Receives a response body in pieces as it arrives, instead of
// Response::body (bounded memory for a container's logs).
using BodySink = std::function<void(std::string_view)>;

struct Request {
  std::string method = "GET";  // "GET", "POST", "PATCH", "PUT", "DELETE"
  std::string url{};           // absolute; over a unix socket the host part is ignored
  // May carry credentials: never logged, never part of an error message.
  Headers headers{};
  std::string body{};
  std::chrono::milliseconds timeout{30000};  // the whole exchange, redirects included; zero: none
  BodySink sink{};                           // when set, the body goes here, not to Response::body
};

// Why an exchange has no response.
enum class Failure {
  kNone,         // the server answered, whatever the status
  kUnreachable,  // no connection, TLS failure, a broken exchange, libcurl missing
  kTimedOut,     // the request's timeout passed first
  kTooLarge,     // a body over the policy's bound (request: not sent; response: cut)
  kRefused,      // the policy forbids the URL or the redirect: nothing was sent there
};

// "unreachable", "timed-out", "too-large", "refused" ("" for kNone).
std::string_view toString(Failure failure);

struct Response {
  int status = 0;                                // 0 when there is no response
  std::map<std::string, std::string> headers{};  // names lower-cased; last value wins
  std::string body{};                            // empty when a sink consumed it
  Failure failure = Failure::kNone;
  std::string error{};  // why there is no response ("Couldn't connect to server"); never a header

  bool answered() const { return failure == Failure::kNone; }
  // The header's value, or "" when absent. `name` must be lower case.
  std::string header(const std::string& name) const;
};

// A Response that says there was none, and why.
Response noResponse(Failure failure, std::string error);

// `s` with every byte but RFC 3986's unreserved characters (letters, digits,
// "-", "_", ".", "~") percent-encoded, upper-case hex: a path segment or a
// query value.
std::string percentEncode(std::string_view s);

class Transport {
 public:
  virtual ~Transport() = default;
  // One exchange. An HTTP error status is an answered Response; a failure
  // is a Response with `failure` set. Never throws. Implementations are
  // safe to call from several threads at once.
  virtual Response send(const Request& request) = 0;
};

}  // namespace lw::http
