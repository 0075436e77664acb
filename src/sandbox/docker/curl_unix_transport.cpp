#include "sandbox/docker/curl_unix_transport.h"

#include "core/libcurl.h"

namespace lw::sandbox::docker {
namespace {

struct Receiver {
  const BodySink* sink;
  std::string* body;
};

size_t onBody(char* data, size_t size, size_t count, void* user) {
  auto* r = static_cast<Receiver*>(user);
  const size_t n = size * count;
  if (r->sink != nullptr && *r->sink)
    (*r->sink)(std::string_view(data, n));
  else
    r->body->append(data, n);
  return n;
}

}  // namespace

CurlUnixTransport::CurlUnixTransport(std::string socketPath, std::chrono::milliseconds connectTimeout)
    : socketPath_(std::move(socketPath)), connectTimeout_(connectTimeout) {}

Result<HttpResponse> CurlUnixTransport::send(const HttpRequest& request, const BodySink& sink) {
  // One easy handle per exchange: a kill may be sent from another thread
  // while a wait is blocked in its own exchange.
  auto curl = lw::curl::newEasy();
  if (!curl) return std::move(curl).error();
  const lw::curl::Api& api = *curl->get_deleter().api;
  HttpResponse response;
  Receiver receiver{&sink, &response.body};
  // The host part is ignored over a unix socket but must be a valid name.
  const std::string url = "http://docker" + request.target;
  CURL* c = curl->get();
  api.easySetopt(c, CURLOPT_UNIX_SOCKET_PATH, socketPath_.c_str());
  api.easySetopt(c, CURLOPT_URL, url.c_str());
  api.easySetopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  api.easySetopt(c, CURLOPT_NOSIGNAL, 1L);
  api.easySetopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connectTimeout_.count()));
  api.easySetopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  api.easySetopt(c, CURLOPT_WRITEFUNCTION, &onBody);
  api.easySetopt(c, CURLOPT_WRITEDATA, &receiver);
  auto headers = lw::curl::headerList(api, {{"Content-Type", "application/json"}});
  if (!headers) return std::move(headers).error();
  if (request.method == "POST" || !request.body.empty()) {
    api.easySetopt(c, CURLOPT_HTTPHEADER, headers->get());
    api.easySetopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
    api.easySetopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
  }
  const CURLcode rc = api.easyPerform(c);
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    response.timedOut = true;
    return response;
  }
  if (rc != CURLE_OK)
    return makeError(ErrorCode::IoError,
                     "Docker engine at " + socketPath_ + ": " + api.easyStrerror(rc) + " (" +
                         request.method + " " + request.target + ")",
                     "is dockerd running, and may this user open its socket?", "docker");
  api.easyGetinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace lw::sandbox::docker
