#include "core/http_curl.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>

#include "core/libcurl.h"

namespace lw::http {
namespace {

using std::chrono::milliseconds;
using SteadyTime = std::chrono::steady_clock::time_point;

struct Receiver {
  const BodySink* sink;
  std::string* body;
  std::size_t max;
  bool tooLarge = false;
};

std::size_t onBody(char* data, std::size_t size, std::size_t n, void* user) {
  auto* r = static_cast<Receiver*>(user);
  const std::size_t bytes = size * n;
  if (r->sink != nullptr && *r->sink) {
    (*r->sink)(std::string_view(data, bytes));
    return bytes;
  }
  if (r->body->size() + bytes > r->max) {
    r->tooLarge = true;
    return 0;  // makes libcurl stop with CURLE_WRITE_ERROR
  }
  r->body->append(data, bytes);
  return bytes;
}

std::size_t onHeader(char* data, std::size_t size, std::size_t n, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string line(data, size * n);
  // A new status line (after a 100 Continue) starts a new set.
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();
    return size * n;
  }
  auto colon = line.find(':');
  if (colon == std::string::npos) return size * n;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string value = line.substr(colon + 1);
  auto first = value.find_first_not_of(" \t");
  auto last = value.find_last_not_of(" \t\r\n");
  value = first == std::string::npos ? "" : value.substr(first, last - first + 1);
  (*headers)[name] = value;
  return size * n;
}

// The scheme, host and port of `url` as libcurl will read them; nullopt
// when libcurl cannot parse it.
std::optional<Origin> originOf(const curl::Api& api, const std::string& url) {
  std::unique_ptr<CURLU, void (*)(CURLU*)> u(api.urlNew(), api.urlCleanup);
  if (!u || api.urlSet(u.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return std::nullopt;
  auto part = [&](CURLUPart which, unsigned flags) -> std::optional<std::string> {
    char* text = nullptr;
    if (api.urlGet(u.get(), which, &text, flags) != CURLUE_OK) return std::nullopt;
    std::string out(text);
    api.free(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
  };
  auto scheme = part(CURLUPART_SCHEME, 0);
  auto host = part(CURLUPART_HOST, 0);
  auto port = part(CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (!scheme || !host) return std::nullopt;
  return Origin{*scheme, *host, port.value_or("")};
}

struct Hop {
  Response response;
  std::string location;  // the absolute URL a 3xx points to, or ""
};

void setMethodAndBody(const curl::Api& api, CURL* c, const Request& request) {
  if (request.method == "GET") {
    api.easySetopt(c, CURLOPT_HTTPGET, 1L);
    return;
  }
  if (request.method == "HEAD") {
    api.easySetopt(c, CURLOPT_NOBODY, 1L);  // libcurl would otherwise wait for a body
    return;
  }
  api.easySetopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  // A DELETE without a body sends none; every other method sends its body,
  // if only a Content-Length of 0 (GitHub wants one on an empty PUT).
  if (!request.body.empty() || request.method != "DELETE") {
    api.easySetopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
    api.easySetopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
}

void setHardening(const curl::Api& api, CURL* c, const Request& request, const Policy& policy, const Origin& target) {
  api.easySetopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  api.easySetopt(c, CURLOPT_FOLLOWLOCATION, 0L);  // CurlTransport::send checks each hop first
  if (!policy.unixSocket.empty()) api.easySetopt(c, CURLOPT_UNIX_SOCKET_PATH, policy.unixSocket.c_str());
  // "" disables every proxy, the environment's included (CURLOPT_PROXY).
  if (!mayUseProxy(target, policy)) api.easySetopt(c, CURLOPT_PROXY, "");
  const milliseconds connect =
      request.timeout.count() > 0 ? std::min(request.timeout, policy.connectTimeout) : policy.connectTimeout;
  api.easySetopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect.count()));
  api.easySetopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  api.easySetopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  if (!policy.caFile.empty()) api.easySetopt(c, CURLOPT_CAINFO, policy.caFile.c_str());
  if (!policy.caPem.empty()) {
    curl_blob blob{const_cast<char*>(policy.caPem.data()), policy.caPem.size(), CURL_BLOB_COPY};
    api.easySetopt(c, CURLOPT_CAINFO_BLOB, &blob);
  }
  if (!request.sink) api.easySetopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(policy.maxResponseBytes));
}

Response failed(const curl::Api& api, CURLcode rc, const Receiver& receiver, const Policy& policy) {
  if (receiver.tooLarge || rc == CURLE_FILESIZE_EXCEEDED)
    return noResponse(Failure::kTooLarge, "response larger than " + std::to_string(policy.maxResponseBytes) + " bytes");
  if (rc == CURLE_OPERATION_TIMEDOUT) return noResponse(Failure::kTimedOut, api.easyStrerror(rc));
  // Over a unix socket the URL names no place: the socket does.
  const std::string at = policy.unixSocket.empty() ? "" : " at " + policy.unixSocket;
  return noResponse(Failure::kUnreachable, api.easyStrerror(rc) + at);
}

Hop exchangeOnce(const Request& request, const Policy& policy, const Origin& target) {
  auto curl = curl::newEasy();
  if (!curl) return {noResponse(Failure::kUnreachable, curl.error().message), {}};
  const curl::Api& api = *curl->get_deleter().api;
  auto list = curl::headerList(api, request.headers);
  if (!list) return {noResponse(Failure::kUnreachable, list.error().message), {}};
  Hop hop;
  Receiver receiver{&request.sink, &hop.response.body, policy.maxResponseBytes};
  CURL* c = curl->get();
  api.easySetopt(c, CURLOPT_URL, request.url.c_str());
  api.easySetopt(c, CURLOPT_HTTPHEADER, list->get());
  setMethodAndBody(api, c, request);
  setHardening(api, c, request, policy, target);
  api.easySetopt(c, CURLOPT_WRITEFUNCTION, onBody);
  api.easySetopt(c, CURLOPT_WRITEDATA, &receiver);
  api.easySetopt(c, CURLOPT_HEADERFUNCTION, onHeader);
  api.easySetopt(c, CURLOPT_HEADERDATA, &hop.response.headers);
  const CURLcode rc = api.easyPerform(c);
  if (rc != CURLE_OK) return {failed(api, rc, receiver, policy), {}};
  long status = 0;
  api.easyGetinfo(c, CURLINFO_RESPONSE_CODE, &status);
  hop.response.status = static_cast<int>(status);
  const char* location = nullptr;
  api.easyGetinfo(c, CURLINFO_REDIRECT_URL, &location);
  if (location != nullptr) hop.location = location;
  return hop;
}

// What is left of the request's time at `now`; nullopt when nothing is.
std::optional<milliseconds> remaining(const Request& request, SteadyTime deadline) {
  if (request.timeout.count() <= 0) return request.timeout;
  const auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return std::nullopt;
  return left;
}

}  // namespace

CurlTransport::CurlTransport(Policy policy) : policy_(std::move(policy)) {}

Response CurlTransport::send(const Request& request) {
  auto api = curl::api();
  if (!api) return noResponse(Failure::kUnreachable, api.error().message);
  if (request.body.size() > policy_.maxRequestBytes)
    return noResponse(Failure::kTooLarge, "request body of " + std::to_string(request.body.size()) +
                                              " bytes is larger than the bound of " +
                                              std::to_string(policy_.maxRequestBytes));
  const SteadyTime deadline = std::chrono::steady_clock::now() + request.timeout;
  Request current = request;
  for (int followed = 0;; ++followed) {
    const auto from = originOf(**api, current.url);
    if (!from) return noResponse(Failure::kRefused, "not a URL libcurl can read");
    if (std::string why = refusal(*from, policy_); !why.empty()) return noResponse(Failure::kRefused, why);
    const auto left = remaining(request, deadline);
    if (!left) return noResponse(Failure::kTimedOut, "Timeout was reached");
    current.timeout = *left;
    Hop hop = exchangeOnce(current, policy_, *from);
    const auto to = hop.location.empty() ? std::nullopt : originOf(**api, hop.location);
    if (!hop.response.answered() || !to) return std::move(hop.response);
    const RedirectDecision d = decideRedirect(hop.response.status, *from, *to, followed, policy_);
    if (d.kind == RedirectDecision::Kind::kAnswer) return std::move(hop.response);
    if (d.kind == RedirectDecision::Kind::kRefuse) return noResponse(Failure::kRefused, d.refusal);
    current = redirected(current, hop.response.status, hop.location);
  }
}

}  // namespace lw::http
