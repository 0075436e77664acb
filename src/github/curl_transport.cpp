#include "github/curl_transport.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "core/libcurl.h"

namespace lw::github {

namespace {

std::size_t onBody(char* data, std::size_t size, std::size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

std::size_t onHeader(char* data, std::size_t size, std::size_t n, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string line(data, size * n);
  // A new status line (after a redirect or a 100 Continue) starts a new set.
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

}  // namespace

CurlTransport::CurlTransport() = default;

Result<HttpResponse> CurlTransport::send(const HttpRequest& request) {
  auto curl = lw::curl::newEasy();
  if (!curl) return std::move(curl).error();
  const lw::curl::Api& api = *curl->get_deleter().api;
  auto list = lw::curl::headerList(api, request.headers);
  if (!list) return std::move(list).error();
  HttpResponse response;
  CURL* c = curl->get();
  api.easySetopt(c, CURLOPT_URL, request.url.c_str());
  api.easySetopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  api.easySetopt(c, CURLOPT_HTTPHEADER, list->get());
  if (request.method == "GET") {
    api.easySetopt(c, CURLOPT_HTTPGET, 1L);
  } else if (!request.body.empty() || request.method != "DELETE") {
    api.easySetopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
    api.easySetopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  api.easySetopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  api.easySetopt(c, CURLOPT_MAXREDIRS, 5L);
  api.easySetopt(c, CURLOPT_UNRESTRICTED_AUTH, 0L);
  api.easySetopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  api.easySetopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::min<long long>(request.timeout.count(), 10000)));
  api.easySetopt(c, CURLOPT_NOSIGNAL, 1L);
  api.easySetopt(c, CURLOPT_WRITEFUNCTION, onBody);
  api.easySetopt(c, CURLOPT_WRITEDATA, &response.body);
  api.easySetopt(c, CURLOPT_HEADERFUNCTION, onHeader);
  api.easySetopt(c, CURLOPT_HEADERDATA, &response.headers);
  CURLcode rc = api.easyPerform(c);
  if (rc != CURLE_OK) {
    return makeError(ErrorCode::PublicationFailed,
                     request.method + " " + request.url + ": " + api.easyStrerror(rc),
                     rc == CURLE_OPERATION_TIMEDOUT ? "GitHub did not answer in time"
                                                    : "check GITHUB_API_URL and the network");
  }
  long status = 0;
  api.easyGetinfo(c, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  return response;
}

}  // namespace lw::github
