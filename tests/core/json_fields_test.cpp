#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "core/json_fields.h"

using namespace lw::json_fields;
namespace json = boost::json;

TEST_CASE("json fields: required fields throw with their path, optional ones are nullopt when absent") {
  const json::value v = json::parse(R"({"head":{"sha":"abc","n":3},"draft":null})");
  const json::object& o = object(v, "");
  CHECK(str(object(field(o, "head", ""), "head"), "sha", "head") == "abc");
  CHECK_FALSE(optBool(o, "draft", "").has_value());
  try {
    (void)integer(object(field(o, "head", ""), "head"), "sha", "head");
    FAIL("a string read as an integer must throw");
  } catch (const FieldError& e) {
    CHECK(e.path == "head.sha");
    CHECK(std::string(e.what()) == "expected an integer, found a string");
  }
}

TEST_CASE("json fields: lenient reads of a GitHub listing item never throw") {
  const json::value item = json::parse(
      R"({"id":18446744073709551615,"user":{"login":"octocat"},"body":"hi","line":null,"in_reply_to_id":7})");
  const json::value ghost = json::parse(R"({"id":-3,"user":null,"body":5})");
  CHECK(peekStr(peekMember(item, "user"), "login") == "octocat");
  CHECK(peekStr(item, "body") == "hi");
  CHECK(peekInt(item, "in_reply_to_id") == 7);
  CHECK_FALSE(peekInt(item, "id").has_value());  // past int64, as integer() refuses it
  CHECK(peekInt(ghost, "id") == -3);
  CHECK_FALSE(peekStr(peekMember(ghost, "user"), "login").has_value());
  CHECK_FALSE(peekStr(ghost, "body").has_value());
  CHECK_FALSE(peekInt(item, "line").has_value());
  CHECK_FALSE(peekInt(item, "missing").has_value());
  CHECK_FALSE(peekStr(json::value(42), "body").has_value());
  CHECK(peekMember(json::value("text"), "user").is_null());
}
