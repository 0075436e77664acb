// The local Kubernetes API server itself: the Status answers the real one
// gives (201, 404, 409 AlreadyExists and Conflict, 422 Invalid with causes,
// 401, 403), and requests Kubernetes' OpenAPI description rejects — an
// unknown field, a MicroTime without microseconds, an undeclared query
// parameter, a path the API does not have — recorded as violations.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "core/http_curl.h"
#include "support/local_k8s_server.h"

using namespace lw;
namespace json = boost::json;

namespace {

constexpr const char* kLeases = "/apis/coordination.k8s.io/v1/namespaces/ci/leases";

struct Client {
  lw::test::LocalK8sServer server;
  http::CurlTransport transport{http::Policy{}};
  http::Response send(const std::string& method, const std::string& target, const std::string& body = "",
                      const std::string& token = lw::test::LocalK8sServer::kToken) {
    http::Request r;
    r.method = method;
    r.url = server.url() + target;
    r.headers = {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}};
    r.body = body;
    return transport.send(r);
  }
};

json::object bodyOf(const http::Response& r) { return json::parse(r.body).as_object(); }

std::string lease(const std::string& name, const std::string& specJson, const std::string& rv = "") {
  return R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":")" + name + "\"" +
         (rv.empty() ? "" : R"(,"resourceVersion":")" + rv + "\"") + R"(},"spec":)" + specJson + "}";
}

}  // namespace

TEST_CASE("local k8s server: create 201, AlreadyExists 409, get, replace with a stale resourceVersion 409, 404") {
  Client c;
  auto created = c.send("POST", kLeases, lease("a", R"({"holderIdentity":"x","leaseDurationSeconds":10})"));
  REQUIRE(created.status == 201);
  const std::string rv(bodyOf(created).at("metadata").at("resourceVersion").as_string());
  auto again = c.send("POST", kLeases, lease("a", "{}"));
  CHECK(again.status == 409);
  CHECK(bodyOf(again).at("reason").as_string() == "AlreadyExists");
  CHECK(c.send("GET", std::string(kLeases) + "/a").status == 200);
  auto replaced = c.send("PUT", std::string(kLeases) + "/a", lease("a", R"({"holderIdentity":"y"})", rv));
  REQUIRE(replaced.status == 200);
  auto stale = c.send("PUT", std::string(kLeases) + "/a", lease("a", R"({"holderIdentity":"z"})", rv));
  CHECK(stale.status == 409);
  CHECK(bodyOf(stale).at("reason").as_string() == "Conflict");
  CHECK(bodyOf(stale).at("message").as_string() ==
        "Operation cannot be fulfilled on leases.coordination.k8s.io \"a\": the object has been modified; please "
        "apply your changes to the latest version and try again");
  auto missing = c.send("GET", std::string(kLeases) + "/b");
  CHECK(missing.status == 404);
  CHECK(bodyOf(missing).at("message").as_string() == "leases.coordination.k8s.io \"b\" not found");
  CHECK(c.send("DELETE", std::string(kLeases) + "/a").status == 200);
  CHECK(c.send("GET", std::string(kLeases) + "/a").status == 404);
  CHECK(c.server.violations() == std::vector<std::string>{});
}

TEST_CASE("local k8s server: 422 Invalid in the Status shape, with one cause per field") {
  Client c;
  auto r = c.send("POST", kLeases, lease("Bad_Name", R"({"leaseDurationSeconds":0})"));
  REQUIRE(r.status == 422);
  json::object status = bodyOf(r);
  CHECK(status.at("kind").as_string() == "Status");
  CHECK(status.at("reason").as_string() == "Invalid");
  CHECK(status.at("code").as_int64() == 422);
  const json::array& causes = status.at("details").at("causes").as_array();
  REQUIRE(causes.size() == 2);
  CHECK(causes[0].at("field").as_string() == "metadata.name");
  CHECK(causes[1].at("field").as_string() == "spec.leaseDurationSeconds");
  CHECK(causes[1].at("message").as_string() == "Invalid value: 0: must be greater than 0");
  CHECK(c.server.violations() == std::vector<std::string>{});  // well-formed, only invalid
}

TEST_CASE("local k8s server: 401 without a known token, 403 Forbidden for a token without the verbs") {
  Client c;
  auto anonymous = c.send("GET", std::string(kLeases) + "/a", "", "nobody");
  CHECK(anonymous.status == 401);
  auto forbidden =
      c.send("PUT", std::string(kLeases) + "/a", lease("a", "{}"), lw::test::LocalK8sServer::kForbiddenToken);
  CHECK(forbidden.status == 403);
  CHECK(bodyOf(forbidden).at("message").as_string() ==
        "leases.coordination.k8s.io \"a\" is forbidden: User \"system:serviceaccount:ci:loopwright\" cannot update "
        "resource \"leases\" in API group \"coordination.k8s.io\" in the namespace \"ci\"");
}

TEST_CASE("local k8s server: requests the OpenAPI description rejects are answered 400 and recorded") {
  Client c;
  SUBCASE("an unknown field") {
    CHECK(c.send("POST", kLeases, lease("a", R"({"holder":"x"})")).status == 400);
    REQUIRE(c.server.violations().size() == 1);
    CHECK(c.server.violations()[0] == "POST " + std::string(kLeases) + ": body: $.spec: unknown field \"holder\"");
  }
  SUBCASE("a renewTime that is not a MicroTime (milliseconds only)") {
    CHECK(c.send("POST", kLeases, lease("a", R"({"renewTime":"2024-05-01T12:00:00.250Z"})")).status == 400);
    REQUIRE(c.server.violations().size() == 1);
    CHECK(c.server.violations()[0].ends_with(
        "$.spec.renewTime: not a MicroTime (RFC 3339 with exactly 6 fractional digits)"));
  }
  SUBCASE("a duration of the wrong type") {
    CHECK(c.send("POST", kLeases, lease("a", R"({"leaseDurationSeconds":"10"})")).status == 400);
    CHECK(c.server.violations().at(0).ends_with("$.spec.leaseDurationSeconds: not integer"));
  }
  SUBCASE("an undeclared query parameter") {
    CHECK(c.send("POST", std::string(kLeases) + "?force=true", lease("a", "{}")).status == 400);
    CHECK(c.server.violations().at(0).ends_with("query parameter 'force' is not declared"));
  }
  SUBCASE("a path the API does not have") {
    CHECK(c.send("GET", "/apis/coordination.k8s.io/v1/leases/a").status == 400);
    CHECK(c.server.violations().at(0).ends_with("no such path in the OpenAPI description"));
  }
}

TEST_CASE("local k8s server: a watch from a resourceVersion sees the changes after it, 410 Expired once compacted") {
  Client c;
  auto created = c.send("POST", kLeases, lease("a", R"({"holderIdentity":"x"})"));
  const std::string from(bodyOf(created).at("metadata").at("resourceVersion").as_string());
  auto replaced = c.send("PUT", std::string(kLeases) + "/a", lease("a", R"({"holderIdentity":"y"})", from));
  REQUIRE(replaced.status == 200);
  auto events = c.send("GET", std::string(kLeases) + "?watch=true&resourceVersion=" + from + "&timeoutSeconds=1");
  REQUIRE(events.status == 200);
  CHECK(events.header("content-type") == "application/json;stream=watch");
  json::object modified = json::parse(events.body).as_object();  // exactly one line
  CHECK(modified.at("type").as_string() == "MODIFIED");
  CHECK(modified.at("object").at("spec").at("holderIdentity").as_string() == "y");
  c.server.compact();
  auto gone = c.send("GET", std::string(kLeases) + "?watch=true&resourceVersion=" + from);
  REQUIRE(gone.status == 200);  // the watch cache reports expiry as the stream's first event
  json::object error = json::parse(gone.body).as_object();
  CHECK(error.at("type").as_string() == "ERROR");
  CHECK(error.at("object").at("code").as_int64() == 410);
  CHECK(error.at("object").at("reason").as_string() == "Expired");
  CHECK(c.server.violations() == std::vector<std::string>{});
}
