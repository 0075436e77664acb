#include "github/rest/rest_client.h"

#include <ostream>

#include <boost/json.hpp>

#include "core/json_text.h"
#include "core/version.h"

namespace lw::github {

namespace json = boost::json;
using std::chrono::milliseconds;

RestConfig restConfigFromEnvironment(const Environment& env) {
  RestConfig c;
  if (auto url = env.get("GITHUB_API_URL"); url && !url->empty()) c.apiUrl = *url;
  if (auto token = env.get("GITHUB_TOKEN")) c.token = *token;
  return c;
}

json::value jsonBody(const HttpResponse& r) {
  boost::system::error_code ec;
  json::value v = json::parse(r.body, ec);
  return ec ? json::value(nullptr) : v;
}

std::string describe(const HttpResponse& r) {
  std::string out = "HTTP " + std::to_string(r.status);
  json::value v = jsonBody(r);
  if (v.is_object()) {
    if (auto* m = v.as_object().if_contains("message"); m && m->is_string())
      out += " (" + std::string(m->get_string()) + ")";
  }
  return out;
}

std::string nextPageUrl(const std::string& link) {
  // <https://api.github.com/…?page=2>; rel="next", <…>; rel="last"
  std::size_t pos = 0;
  while (pos < link.size()) {
    auto open = link.find('<', pos);
    if (open == std::string::npos) break;
    auto close = link.find('>', open);
    if (close == std::string::npos) break;
    auto end = link.find(',', close);
    std::string params = link.substr(close + 1, end == std::string::npos ? std::string::npos : end - close - 1);
    if (params.find("rel=\"next\"") != std::string::npos) return link.substr(open + 1, close - open - 1);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return {};
}

RestClient::RestClient(HttpTransport& transport, const WallClock& clock, Sleeper& sleeper, RestConfig config,
                       std::ostream* log)
    : transport_(transport), clock_(clock), sleeper_(sleeper), config_(std::move(config)), log_(log) {
  while (!config_.apiUrl.empty() && config_.apiUrl.back() == '/') config_.apiUrl.pop_back();
}

namespace {

// True when the last answer was one the retry rules retry (a rate limit, a
// 5xx, no answer at all), so stopping means the tries ran out.
bool gaveUpRetrying(const HttpResponse* response) {
  switch (classify(response)) {
    case Failure::PrimaryRateLimit:
    case Failure::SecondaryRateLimit:
    case Failure::ServerError:
    case Failure::NoResponse: return true;
    default: return false;
  }
}

// Every request to GitHub: the media type, API version, user agent and token.
HttpRequest githubRequest(const std::string& method, std::string url, const std::string& body,
                          const std::string& accept, const RestConfig& config) {
  HttpRequest req;
  req.method = method;
  req.url = std::move(url);
  req.body = body;
  req.timeout = config.timeout;
  req.headers = {
      {"Accept", accept}, {"X-GitHub-Api-Version", kApiVersion}, {"User-Agent", std::string("loopwright/") + kVersion}};
  if (!config.token.empty()) req.headers.emplace_back("Authorization", "Bearer " + config.token);
  if (!body.empty()) req.headers.emplace_back("Content-Type", "application/json");
  return req;
}

// A POST that got a 5xx or no answer may have been carried out anyway; rate
// limit answers are refusals: nothing landed, no need to look. The answer of
// the earlier try when `landed` finds it, nothing when another try is due.
std::optional<Result<HttpResponse>> earlierTryLanded(const HttpResponse* response,
                                                     const RestClient::LandedProbe* landed) {
  Failure f = classify(response);
  if (!landed || !*landed || (f != Failure::ServerError && f != Failure::NoResponse)) return std::nullopt;
  auto found = (*landed)();  // GETs only, which do not take the write lock
  if (!found) return Result<HttpResponse>(std::move(found).error());
  if (!found->has_value()) return std::nullopt;
  return Result<HttpResponse>(std::move(**found));
}

}  // namespace

std::string RestClient::url(const std::string& path) const {
  if (path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0) return path;
  return config_.apiUrl + path;
}

void RestClient::waitUntil(std::chrono::system_clock::time_point t) {
  auto now = clock_.now();
  if (t > now) sleeper_.sleepFor(std::chrono::duration_cast<milliseconds>(t - now));
}

Result<HttpResponse> RestClient::get(const std::string& path, const std::string& accept) {
  return execute("GET", path, {}, accept, nullptr);
}

Result<json::array> RestClient::getAll(const std::string& path, const std::string& arrayKey) {
  json::array all;
  std::string next = path + (path.find('?') == std::string::npos ? "?" : "&") + "per_page=100";
  // A bound so that a server that always links to a next page cannot loop us.
  for (int page = 0; !next.empty(); ++page) {
    if (page >= 1000) return makeError(ErrorCode::PublicationFailed, "GET " + path + ": more than 1000 pages");
    auto r = get(next);
    if (!r) return std::move(r).error();
    if (r->status / 100 != 2) return makeError(ErrorCode::PublicationFailed, "GET " + path + ": " + describe(*r));
    json::value v = jsonBody(*r);
    const json::value* items = &v;
    if (!arrayKey.empty() && v.is_object()) items = v.as_object().if_contains(arrayKey);
    if (!items || !items->is_array())
      return makeError(ErrorCode::PublicationFailed, "GET " + path + ": the response is not a list");
    for (const auto& item : items->as_array()) all.push_back(item);
    next = nextPageUrl(r->header("link"));
  }
  return all;
}

Result<HttpResponse> RestClient::send(const std::string& method, const std::string& path, const json::value& body,
                                      const LandedProbe* landed) {
  return execute(method, path, body.is_null() ? std::string() : toJsonText(body), kJsonMedia, landed);
}

Result<HttpResponse> RestClient::post(const std::string& path, const json::value& body, const LandedProbe& landed) {
  return execute("POST", path, toJsonText(body), kJsonMedia, &landed);
}

Result<HttpResponse> RestClient::postQuery(const std::string& path, const json::value& body) {
  return execute("POST", path, toJsonText(body), kJsonMedia, nullptr);
}

Result<HttpResponse> RestClient::execute(const std::string& method, const std::string& path, const std::string& body,
                                         const std::string& accept, const LandedProbe* landed) {
  const bool isWrite = method != "GET";
  std::unique_lock<std::mutex> writeLock(writeMutex_, std::defer_lock);
  if (isWrite) writeLock.lock();

  const HttpRequest req = githubRequest(method, url(path), body, accept, config_);

  for (int attempt = 1;; ++attempt) {
    waitUntil(notBefore_);
    if (isWrite && lastWrite_) waitUntil(*lastWrite_ + config_.writeInterval);
    if (isWrite) lastWrite_ = clock_.now();

    HttpResponse sent = transport_.send(req);
    // Nothing another try could change: the policy refuses the URL, or a
    // body is over the bound (the request's was not sent at all).
    const bool unchangeable = sent.failure == http::Failure::kRefused || sent.failure == http::Failure::kTooLarge;
    Result<HttpResponse> res = answeredOrError(std::move(sent), req);
    if (unchangeable) return res;
    const HttpResponse* response = res.ok() ? &res.value() : nullptr;
    if (response && response->status / 100 == 2) {
      notBefore_ = clock_.now() + primaryWait(*response, clock_.now());
      return res;
    }
    RetryDecision d = decideRetry(response, attempt, clock_.now(), config_.retry);
    if (!response) d.reason += " (" + res.error().message + ")";
    if (response && classify(response) == Failure::PrimaryRateLimit) notBefore_ = clock_.now() + d.wait;
    if (!d.retry) {
      // Giving up on what retries could have fixed is news; a refusal
      // (403, 404, 406, 422) is the caller's to explain or to act on (the
      // Actions token's 403 on GET /user, a 406 diff read locally instead).
      if (log_ && gaveUpRetrying(response))
        *log_ << "loopwright: GitHub " << method << " " << path << ": " << d.reason << "\n";
      return res;
    }
    if (log_) {
      *log_ << "loopwright: GitHub " << method << " " << path << ": " << d.reason << "; retrying in "
            << (d.wait.count() + 999) / 1000 << " s (try " << attempt + 1 << " of " << config_.retry.maxAttempts
            << ")\n";
    }
    sleeper_.sleepFor(d.wait);
    if (auto earlier = earlierTryLanded(response, landed)) {
      if (log_ && *earlier)
        *log_ << "loopwright: GitHub " << method << " " << path << ": the earlier try landed; not repeating it\n";
      return std::move(*earlier);
    }
  }
}

}  // namespace lw::github
