#include <doctest/doctest.h>

#include "core/http_policy.h"

using namespace lw::http;

TEST_CASE("http policy: which hosts are this machine") {
  struct Row {
    const char* host;
    bool loopback;
  };
  const Row rows[] = {
      {"localhost", true},  {"api.localhost", true},   {"127.0.0.1", true},
      {"127.8.9.10", true}, {"[::1]", true},           {"[::ffff:127.0.0.1]", true},
      {"128.0.0.1", false}, {"10.0.0.1", false},       {"localhost.example.com", false},
      {"[::2]", false},     {"api.github.com", false}, {"", false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.host);
    CHECK(isLoopbackHost(r.host) == r.loopback);
  }
}

TEST_CASE("http policy: https anywhere, plain http only to this machine, nothing else") {
  Policy tcp;
  Policy unixSocket;
  unixSocket.unixSocket = "/run/docker.sock";
  CHECK(refusal({"https", "api.github.com", "443"}, tcp) == "");
  CHECK(refusal({"http", "127.0.0.1", "8080"}, tcp) == "");
  CHECK(refusal({"http", "[::1]", "80"}, tcp) == "");
  CHECK(refusal({"http", "models.example", "80"}, tcp) ==
        "plain http is allowed only to this machine, not to models.example (use https)");
  CHECK(refusal({"ftp", "127.0.0.1", "21"}, tcp) == "only http and https are allowed, not 'ftp'");
  CHECK(refusal({"file", "", ""}, tcp) == "only http and https are allowed, not 'file'");
  // Over a unix socket the host is a placeholder: the socket is the destination.
  CHECK(refusal({"http", "docker", "80"}, unixSocket) == "");
  CHECK(refusal({"ftp", "docker", "21"}, unixSocket) != "");
}

TEST_CASE("http policy: a proxy only where the policy takes one, never to this machine or a socket") {
  Policy direct;
  Policy proxied;
  proxied.proxy = Proxy::kFromEnvironment;
  Policy socket = proxied;
  socket.unixSocket = "/run/docker.sock";
  const Origin remote{"https", "api.github.com", "443"};
  const Origin local{"http", "127.0.0.1", "9000"};
  CHECK_FALSE(mayUseProxy(remote, direct));
  CHECK(mayUseProxy(remote, proxied));
  CHECK_FALSE(mayUseProxy(local, proxied));
  CHECK_FALSE(mayUseProxy(remote, socket));
}

TEST_CASE("http policy: redirects followed only on the same origin and up to the bound") {
  using Kind = RedirectDecision::Kind;
  Policy none;
  Policy five;
  five.maxRedirects = 5;
  const Origin api{"https", "api.github.com", "443"};
  struct Row {
    const char* name;
    int status;
    Origin to;
    int followed;
    const Policy* policy;
    Kind kind;
  };
  const Row rows[] = {
      {"not a redirect", 200, api, 0, &five, Kind::kAnswer},
      {"304 is no redirect", 304, api, 0, &five, Kind::kAnswer},
      {"a policy without redirects answers the 3xx", 301, api, 0, &none, Kind::kAnswer},
      {"same origin", 301, api, 0, &five, Kind::kFollow},
      {"same origin, 307", 307, api, 4, &five, Kind::kFollow},
      {"over the bound", 308, api, 5, &five, Kind::kRefuse},
      {"another host", 302, {"https", "evil.example", "443"}, 0, &five, Kind::kRefuse},
      {"another port", 302, {"https", "api.github.com", "8443"}, 0, &five, Kind::kRefuse},
      {"down to http", 302, {"http", "api.github.com", "443"}, 0, &five, Kind::kRefuse},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    CHECK(decideRedirect(r.status, api, r.to, r.followed, *r.policy).kind == r.kind);
  }
  CHECK(decideRedirect(302, api, {"https", "evil.example", "443"}, 0, five).refusal ==
        "a redirect from https://api.github.com:443 to another origin (https://evil.example:443) is not followed");
  CHECK(decideRedirect(301, api, api, 5, five).refusal == "more than 5 redirects (last to https://api.github.com:443)");
}

TEST_CASE("http policy: 303, and 301/302 after a POST, continue as a GET without a body") {
  Request post;
  post.method = "POST";
  post.url = "https://a.example/x";
  post.body = "{}";
  post.headers = {{"Authorization", "Bearer t"}};
  struct Row {
    int status;
    const char* method;
    const char* expected;
    bool keepsBody;
  };
  const Row rows[] = {{303, "POST", "GET", false},   {302, "POST", "GET", false}, {301, "POST", "GET", false},
                      {307, "POST", "POST", true},   {308, "POST", "POST", true}, {303, "PATCH", "GET", false},
                      {301, "PATCH", "PATCH", true}, {302, "GET", "GET", true}};
  for (const Row& r : rows) {
    CAPTURE(r.status);
    CAPTURE(r.method);
    Request current = post;
    current.method = r.method;
    const Request next = redirected(current, r.status, "https://a.example/y");
    CHECK(next.method == r.expected);
    CHECK(next.url == "https://a.example/y");
    CHECK(next.body == (r.keepsBody ? "{}" : ""));
    CHECK(next.headers == current.headers);
  }
}
