#include "bridge/curl_lane_http.h"

#include <algorithm>
#include <memory>

#include "core/libcurl.h"

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

}  // namespace

CurlLaneHttp::CurlLaneHttp() = default;

LaneHttpOutcome CurlLaneHttp::post(const LaneHttpRequest& request) {
  LaneHttpOutcome out;
  auto curl = lw::curl::newEasy();
  if (!curl) {
    out.error = curl.error().message;
    return out;
  }
  const lw::curl::Api& api = *curl->get_deleter().api;
  auto list = lw::curl::headerList(api, request.headers);
  if (!list) {
    out.error = list.error().message;
    return out;
  }
  Sink sink{&out.body, request.maxResponseBytes};
  CURL* c = curl->get();
  api.easySetopt(c, CURLOPT_URL, request.url.c_str());
  api.easySetopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  api.easySetopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  api.easySetopt(c, CURLOPT_POST, 1L);
  api.easySetopt(c, CURLOPT_HTTPHEADER, list->get());
  api.easySetopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
  api.easySetopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  api.easySetopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  api.easySetopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::min<long long>(request.timeout.count(), 10000)));
  api.easySetopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  api.easySetopt(c, CURLOPT_WRITEFUNCTION, onBody);
  api.easySetopt(c, CURLOPT_WRITEDATA, &sink);
  CURLcode rc = api.easyPerform(c);
  if (rc != CURLE_OK) {
    out.timedOut = rc == CURLE_OPERATION_TIMEDOUT;
    out.tooLarge = sink.tooLarge;
    out.error = sink.tooLarge ? "response larger than " + std::to_string(request.maxResponseBytes) + " bytes"
                              : api.easyStrerror(rc);
    out.body.clear();
    return out;
  }
  long status = 0;
  api.easyGetinfo(c, CURLINFO_RESPONSE_CODE, &status);
  out.status = static_cast<int>(status);
  return out;
}

}  // namespace lw::bridge
