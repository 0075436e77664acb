#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "agents/params.h"

using namespace lw;
using lw::agents::ParamReader;

TEST_CASE("agent params: absent or null keeps the default, a wrong type is false, every agent tells it alike") {
  boost::json::object params{{"n", 0.5},       {"b", true},       {"s", "x"}, {"l", boost::json::array{"a", "b"}},
                             {"sev", "error"}, {"gone", nullptr}, {"bad", 3}};
  const ParamReader with("triage", params);
  double n = 9;
  bool b = false;
  std::string s = "default";
  std::vector<std::string> l{"kept"};
  Severity sev = Severity::Notice;
  CHECK(with.number("n", n));
  CHECK(n == 0.5);
  CHECK(with.boolean("b", b));
  CHECK(b);
  CHECK(with.string("gone", s));
  CHECK(s == "default");
  CHECK(with.strings("l", l));
  CHECK(l == std::vector<std::string>{"a", "b"});
  CHECK(with.severity("sev", sev));
  CHECK(sev == Severity::Error);
  CHECK(with.number("absent", n));
  CHECK(n == 0.5);
  CHECK_FALSE(with.string("bad", s));
  CHECK_FALSE(with.strings("s", l));
  CHECK(l == std::vector<std::string>{"a", "b"});  // a failed read changes nothing
  CHECK_FALSE(with.severity("s", sev));
  Error e = with.bad("labels", "true or false");
  CHECK(e.code == ErrorCode::TaskpackInvalid);
  CHECK(e.message == "builtin/triage: with.labels must be true or false");
  CHECK(e.subject == "with.labels");
}
