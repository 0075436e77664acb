#include "sandbox/docker/curl_unix_transport.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace lw::sandbox::docker {
namespace {

// curl_global_init is not thread-safe before libcurl 7.84; do it once.
void globalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

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

struct EasyDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct ListDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

CurlUnixTransport::CurlUnixTransport(std::string socketPath, std::chrono::milliseconds connectTimeout)
    : socketPath_(std::move(socketPath)), connectTimeout_(connectTimeout) {
  globalInit();
}

Result<HttpResponse> CurlUnixTransport::send(const HttpRequest& request, const BodySink& sink) {
  // One easy handle per exchange: a kill may be sent from another thread
  // while a wait is blocked in its own exchange.
  std::unique_ptr<CURL, EasyDeleter> curl(curl_easy_init());
  if (!curl) return makeError(ErrorCode::Internal, "curl_easy_init failed", {}, "docker");
  HttpResponse response;
  Receiver receiver{&sink, &response.body};
  std::unique_ptr<curl_slist, ListDeleter> headers;
  // The host part is ignored over a unix socket but must be a valid name.
  const std::string url = "http://docker" + request.target;
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, socketPath_.c_str());
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connectTimeout_.count()));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &onBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &receiver);
  if (request.method == "POST" || !request.body.empty()) {
    headers.reset(curl_slist_append(nullptr, "Content-Type: application/json"));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
  }
  const CURLcode rc = curl_easy_perform(c);
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    response.timedOut = true;
    return response;
  }
  if (rc != CURLE_OK)
    return makeError(ErrorCode::IoError,
                     "Docker engine at " + socketPath_ + ": " + curl_easy_strerror(rc) + " (" +
                         request.method + " " + request.target + ")",
                     "is dockerd running, and may this user open its socket?", "docker");
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace lw::sandbox::docker
