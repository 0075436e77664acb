#include <deque>
#include <sstream>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/rest/rest_client.h"

using namespace lw;
using namespace lw::github;
using std::chrono::milliseconds;

namespace {

// Answers from a script and records what was sent.
class ScriptedTransport final : public HttpTransport {
 public:
  // A scripted Error stands for no response, with its message as the
  // reason; "Timeout was reached" is a timeout, as libcurl says it.
  HttpResponse send(const HttpRequest& r) override {
    sent.push_back(r);
    REQUIRE_FALSE(answers.empty());
    auto a = std::move(answers.front());
    answers.pop_front();
    if (a) return std::move(a).value();
    const bool timeout = a.error().message == "Timeout was reached";
    return http::noResponse(timeout ? http::Failure::kTimedOut : http::Failure::kUnreachable, a.error().message);
  }
  std::deque<Result<HttpResponse>> answers;
  std::vector<HttpRequest> sent;
};

class TestClock final : public WallClock {
 public:
  std::chrono::system_clock::time_point now() const override { return t; }
  std::chrono::system_clock::time_point t{std::chrono::seconds(1'700'000'000)};
};

class TestSleeper final : public Sleeper {
 public:
  explicit TestSleeper(TestClock& c) : clock(c) {}
  void sleepFor(milliseconds d) override {
    slept.push_back(d);
    clock.t += d;
  }
  TestClock& clock;
  std::vector<milliseconds> slept;
};

struct Fixture {
  Fixture() : sleeper(clock) {
    config.apiUrl = "https://ghe.example.com/api/v3/";
    config.token = "tok";
  }
  RestClient client() { return RestClient(transport, clock, sleeper, config, &log); }
  ScriptedTransport transport;
  TestClock clock;
  TestSleeper sleeper;
  RestConfig config;
  std::ostringstream log;
};

HttpResponse ok(std::string body, std::map<std::string, std::string> headers = {}) {
  return HttpResponse{200, std::move(headers), std::move(body)};
}

}  // namespace

TEST_CASE("rest client: GHES base URL, standard headers, API version, token") {
  Fixture f;
  f.transport.answers.push_back(ok("{}"));
  auto r = f.client().get("/repos/o/r");
  REQUIRE(r.ok());
  const HttpRequest& req = f.transport.sent.at(0);
  CHECK(req.url == "https://ghe.example.com/api/v3/repos/o/r");
  std::map<std::string, std::string> h(req.headers.begin(), req.headers.end());
  CHECK(h["Accept"] == "application/vnd.github+json");
  CHECK(h["X-GitHub-Api-Version"] == "2022-11-28");
  CHECK(h["Authorization"] == "Bearer tok");
  CHECK(h["User-Agent"].rfind("loopwright/", 0) == 0);
  CHECK_FALSE(h.count("Content-Type"));
}

TEST_CASE("rest client: environment gives the API URL and token") {
  auto c =
      restConfigFromEnvironment(Environment({{"GITHUB_API_URL", "https://ghe.local/api/v3"}, {"GITHUB_TOKEN", "t"}}));
  CHECK(c.apiUrl == "https://ghe.local/api/v3");
  CHECK(c.token == "t");
  CHECK(restConfigFromEnvironment(Environment{}).apiUrl == "https://api.github.com");
}

TEST_CASE("rest client: pagination follows Link rel=next") {
  Fixture f;
  f.transport.answers.push_back(
      ok("[1,2]", {{"link",
                    "<https://ghe.example.com/api/v3/x?per_page=100&page=2>; rel=\"next\", "
                    "<https://ghe.example.com/api/v3/x?per_page=100&page=3>; rel=\"last\""}}));
  f.transport.answers.push_back(ok("[3]", {{"link", "<https://ghe.example.com/api/v3/x?page=1>; rel=\"first\""}}));
  auto all = f.client().getAll("/x");
  REQUIRE(all.ok());
  CHECK(all->size() == 3);
  CHECK(f.transport.sent[0].url == "https://ghe.example.com/api/v3/x?per_page=100");
  CHECK(f.transport.sent[1].url == "https://ghe.example.com/api/v3/x?per_page=100&page=2");
  CHECK(nextPageUrl("") == "");
}

TEST_CASE("rest client: writes are paced a second apart, GETs are not") {
  Fixture f;
  for (int i = 0; i < 4; ++i) f.transport.answers.push_back(ok("{}"));
  RestClient c = f.client();
  REQUIRE(c.send("PATCH", "/a", boost::json::object{}).ok());
  f.clock.t += milliseconds(300);
  REQUIRE(c.send("PATCH", "/b", boost::json::object{}).ok());
  REQUIRE(c.get("/c").ok());
  REQUIRE(c.send("DELETE", "/d", nullptr).ok());
  CHECK(f.sleeper.slept == std::vector<milliseconds>{milliseconds(700), milliseconds(1000)});
  CHECK(f.transport.sent[0].headers.back() == std::pair<std::string, std::string>("Content-Type", "application/json"));
}

TEST_CASE("rest client: a spent primary budget holds the next request until the reset") {
  Fixture f;
  f.transport.answers.push_back(ok("{}", {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000030"}}));
  f.transport.answers.push_back(ok("{}"));
  RestClient c = f.client();
  REQUIRE(c.get("/a").ok());
  REQUIRE(c.get("/b").ok());
  CHECK(f.sleeper.slept == std::vector<milliseconds>{milliseconds(31000)});
}

TEST_CASE("rest client: a POST is retried only when the earlier try did not land") {
  Fixture f;
  int probes = 0;
  RestClient::LandedProbe landed = [&]() -> Result<std::optional<HttpResponse>> {
    ++probes;
    if (probes == 1) return std::optional<HttpResponse>();
    return std::optional<HttpResponse>(HttpResponse{201, {}, "{\"id\":5}"});
  };
  f.transport.answers.push_back(HttpResponse{502, {}, ""});
  f.transport.answers.push_back(makeError(ErrorCode::PublicationFailed, "Timeout was reached"));
  auto r = f.client().post("/p", boost::json::object{{"a", 1}}, landed);
  REQUIRE(r.ok());
  CHECK(r->body == "{\"id\":5}");
  CHECK(f.transport.sent.size() == 2);
  CHECK(probes == 2);
  CHECK(f.log.str().find(
            "no response (POST https://ghe.example.com/api/v3/p: Timeout was reached); retrying in 2 s (try 3 of 5)") !=
        std::string::npos);
}

TEST_CASE("rest client: rate-limit refusals are retried without asking whether they landed") {
  Fixture f;
  int probes = 0;
  RestClient::LandedProbe landed = [&]() -> Result<std::optional<HttpResponse>> {
    ++probes;
    return std::optional<HttpResponse>();
  };
  f.transport.answers.push_back(HttpResponse{429, {{"retry-after", "3"}}, ""});
  f.transport.answers.push_back(HttpResponse{201, {}, "{}"});
  auto r = f.client().post("/p", boost::json::object{}, landed);
  REQUIRE(r.ok());
  CHECK(r->status == 201);
  CHECK(probes == 0);
  CHECK(f.sleeper.slept.front() == milliseconds(3000));
}

TEST_CASE("rest client: a final HTTP error is returned as a response, no response at all is an error") {
  Fixture f;
  f.transport.answers.push_back(HttpResponse{404, {}, R"({"message":"Not Found"})"});
  auto r = f.client().get("/missing");
  REQUIRE(r.ok());
  CHECK(r->status == 404);
  CHECK(describe(*r) == "HTTP 404 (Not Found)");
  for (int i = 0; i < 5; ++i)
    f.transport.answers.push_back(makeError(ErrorCode::PublicationFailed, "Couldn't connect to server"));
  auto gone = f.client().get("/x");
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().code == ErrorCode::PublicationFailed);
  CHECK(gone.error().message == "GET https://ghe.example.com/api/v3/x: Couldn't connect to server");
  CHECK(gone.error().hint == "check GITHUB_API_URL and the network");
  CHECK(f.transport.sent.size() == 6);
}

TEST_CASE("rest client: no response is PUBLICATION_FAILED whose hint says why there was none") {
  Fixture f;
  f.config.retry.maxAttempts = 1;
  f.transport.answers.push_back(makeError(ErrorCode::PublicationFailed, "Timeout was reached"));
  auto slow = f.client().get("/slow");
  REQUIRE_FALSE(slow.ok());
  CHECK(slow.error().code == ErrorCode::PublicationFailed);
  CHECK(slow.error().hint == "GitHub did not answer in time");
  HttpResponse refused = http::noResponse(http::Failure::kRefused, "a redirect to another origin is not followed");
  ScriptedTransport once;
  once.answers.push_back(refused);
  auto r = exchange(once, HttpRequest{.method = "GET", .url = "https://api.github.com/x"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "GET https://api.github.com/x: a redirect to another origin is not followed");
  CHECK(r.error().hint.find("redirects are followed on its host only") != std::string::npos);
}

TEST_CASE("rest client: a request the policy refuses or that is over the bound is not tried again") {
  for (http::Failure failure : {http::Failure::kRefused, http::Failure::kTooLarge}) {
    CAPTURE(http::toString(failure));
    Fixture f;
    f.transport.answers.push_back(http::noResponse(failure, "not sent"));
    auto r = f.client().post("/repos/o/r/issues/1/comments", boost::json::object{{"body", "x"}},
                             [] { return Result<std::optional<HttpResponse>>(std::nullopt); });
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::PublicationFailed);
    CHECK(f.transport.sent.size() == 1);
    CHECK(f.sleeper.slept.empty());
  }
}
