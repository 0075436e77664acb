#include "bridge/curl_lane_http.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include <curl/curl.h>

namespace lw::bridge {

namespace {

struct Sink {
  std::string* body;
  std::size_t max;
  bool tooLarge = false;
};

std::size_t onBody(char* data, std::size_t size, std::size_t n, void* user) {
  auto* sink = static_cast<Sink*>(user);
  if (sink->body->size() + size * n > sink->max) {
    sink->tooLarge = true;
    return 0;  // makes curl fail with CURLE_WRITE_ERROR
  }
  sink->body->append(data, size * n);
  return size * n;
}

struct EasyDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct ListDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

CurlLaneHttp::CurlLaneHttp() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

LaneHttpOutcome CurlLaneHttp::post(const LaneHttpRequest& request) {
  LaneHttpOutcome out;
  std::unique_ptr<CURL, EasyDeleter> curl(curl_easy_init());
  if (!curl) {
    out.error = "libcurl could not create a handle";
    return out;
  }
  std::unique_ptr<curl_slist, ListDeleter> list;
  for (const auto& [name, value] : request.headers) {
    std::string line = name + ": " + value;
    curl_slist* next = curl_slist_append(list.get(), line.c_str());
    if (!next) {
      out.error = "out of memory building headers";
      return out;
    }
    list.release();
    list.reset(next);
  }
  // Without this libcurl waits for a "100 Continue" some servers never send.
  list.reset(curl_slist_append(list.release(), "Expect:"));
  Sink sink{&out.body, request.maxResponseBytes};
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::min<long long>(request.timeout.count(), 10000)));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  CURLcode rc = curl_easy_perform(c);
  if (rc != CURLE_OK) {
    out.timedOut = rc == CURLE_OPERATION_TIMEDOUT;
    out.tooLarge = sink.tooLarge;
    out.error = sink.tooLarge ? "response larger than " + std::to_string(request.maxResponseBytes) + " bytes"
                              : curl_easy_strerror(rc);
    out.body.clear();
    return out;
  }
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  out.status = static_cast<int>(status);
  return out;
}

}  // namespace lw::bridge
