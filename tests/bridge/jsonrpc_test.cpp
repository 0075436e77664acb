#include <doctest/doctest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "bridge/jsonrpc.h"
#include "bridge/line_reader.h"

using namespace lw::bridge;
namespace json = boost::json;

TEST_CASE("jsonrpc: requests, notifications and what is owed for bad lines") {
  SUBCASE("a request") {
    auto m = parseMessage(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}})");
    auto* r = std::get_if<RpcRequest>(&m);
    REQUIRE(r);
    CHECK(r->id->as_int64() == 7);
    CHECK(r->method == "tools/list");
    CHECK(r->params.is_object());
  }
  SUBCASE("a notification has no id") {
    auto m = parseMessage(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    REQUIRE(std::get_if<RpcRequest>(&m));
    CHECK_FALSE(std::get<RpcRequest>(m).id);
  }
  struct Bad {
    const char* line;
    int code;
    const char* message;
    const char* id;  // serialized
  };
  const Bad cases[] = {
      {"{not json", kParseError, "Parse error", "null"},
      {"[1,2]", kInvalidRequest, "Invalid Request: batches are not supported; send one message per line", "null"},
      {"42", kInvalidRequest, "Invalid Request: a message is a JSON object", "null"},
      {R"({"id":1,"method":"x"})", kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"", "1"},
      {R"({"jsonrpc":"2.0","id":"a","method":3})", kInvalidRequest, "Invalid Request: method must be a string",
       "\"a\""},
      {R"({"jsonrpc":"2.0","id":{"x":1},"method":"m"})", kInvalidRequest,
       "Invalid Request: id must be a string or an integer", "null"},
      {R"({"jsonrpc":"2.0","id":2,"method":"m","params":"s"})", kInvalidRequest,
       "Invalid Request: params must be an object or an array", "2"},
      {R"({"jsonrpc":"2.0","id":3,"result":{}})", kInvalidRequest,
       "Invalid Request: the bridge sends no requests, so it takes no responses", "3"},
  };
  for (const Bad& b : cases) {
    CAPTURE(b.line);
    auto m = parseMessage(b.line);
    auto* e = std::get_if<RpcError>(&m);
    REQUIRE(e);
    CHECK(e->code == b.code);
    CHECK(e->message.rfind(b.message, 0) == 0);
    json::value line = json::parse(errorLine(*e));
    CHECK(json::serialize(line.at("id")) == b.id);
    CHECK(line.at("jsonrpc") == "2.0");
    CHECK(line.at("error").at("code").as_int64() == b.code);
    CHECK(expectsReply(b.line));
  }
}

TEST_CASE("jsonrpc: expectsReply matches what the session answers") {
  CHECK(expectsReply(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"));
  CHECK_FALSE(expectsReply(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})"));
  CHECK_FALSE(expectsReply(""));
  CHECK_FALSE(expectsReply("  \r"));
  CHECK(expectsReply("garbage"));
  CHECK(expectsReply(std::string(kMaxMessageBytes + 1, 'x')));
}

TEST_CASE("jsonrpc: result lines are one line") {
  std::string line = resultLine(json::value("x\ny"), json::object{{"text", "a\nb"}});
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line == R"({"jsonrpc":"2.0","id":"x\ny","result":{"text":"a\nb"}})");
}

TEST_CASE("line reader: whole lines across chunks, oversize lines dropped once") {
  LineReader r(10);
  std::vector<std::string> lines;
  std::vector<std::size_t> large;
  auto onLine = [&](std::string_view l) { lines.emplace_back(l); };
  auto onLarge = [&](std::size_t n) { large.push_back(n); };
  r.feed("ab", onLine, onLarge);
  r.feed("c\nde\n\nf", onLine, onLarge);
  CHECK(lines == std::vector<std::string>{"abc", "de", ""});
  CHECK(r.pending() == "f");
  r.feed("0123456789", onLine, onLarge);  // 11 bytes without a newline
  REQUIRE(large.size() == 1);
  CHECK(large[0] == 11);
  r.feed(std::string(1000, 'z'), onLine, onLarge);
  CHECK(large.size() == 1);
  r.feed("zz\nok\n", onLine, onLarge);
  CHECK(lines.back() == "ok");
  CHECK(lines.size() == 4);
  SUBCASE("exactly the limit is fine") {
    r.feed("0123456789\n", onLine, onLarge);
    CHECK(lines.back() == "0123456789");
    CHECK(large.size() == 1);
  }
  SUBCASE("a too-long line inside one chunk") {
    r.feed("0123456789AB\nnext\n", onLine, onLarge);
    CHECK(large.size() == 2);
    CHECK(lines.back() == "next");
  }
}
