// `loopwright bridge stdio`, the real binary, relaying a step's stdio to its
// bridge through an inherited descriptor (fd:3) or a socket path.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <sstream>

#include "bridge_rig.h"
#include "child.h"

using namespace lw;
using namespace lw::bridge;
using namespace lw::test;
namespace json = boost::json;

namespace {

std::vector<json::value> lines(const std::string& out) {
  std::vector<json::value> v;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) v.push_back(json::parse(l));
  return v;
}

const char* kRequests =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
    "\n"
    R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
    "\n"
    R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"model.complete","arguments":{"messages":[{"role":"user","content":"slow"}]}}})"
    "\n"
    R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"github.issues.search","arguments":{}}})";  // no final newline

}  // namespace

TEST_CASE("bridge stdio: relays over fd:3 and waits for the answers owed after stdin ends" *
          doctest::test_suite("integration")) {
  BridgeRig rig;
  rig.model.script(FakeModel::Reply::delayed(std::chrono::milliseconds(400)));
  auto pair = makeBridgeSocketPair();
  REQUIRE(pair);
  auto server = BridgeServer::serveFd(std::move(pair->first), *rig.session);
  REQUIRE(server);
  Child c = startChild({LOOPWRIGHT_BIN, "bridge", "stdio"}, {{"LOOPWRIGHT_BRIDGE", "fd:3"}}, pair->second.get());
  REQUIRE(c.pid > 0);
  pair->second.reset();  // the child has its copy
  writeAllTo(c.in, kRequests);
  ::close(c.in);  // stdin ends before the slow model call is answered
  std::string out = readUntilEof(c.out);
  std::string err = readUntilEof(c.err);
  CHECK(waitChild(c.pid) == 0);
  CAPTURE(err);
  auto replies = lines(out);
  REQUIRE(replies.size() == 3);
  CHECK(replies[0].at("result").at("serverInfo").at("name") == "loopwright-bridge");
  CHECK(replies[1].at("result").at("content").at(0).at("text") == "fake completion 1");
  CHECK(replies[2].at("error").at("data").at("missingGrant") == "github.issues.search");
  ::close(c.out);
  ::close(c.err);
}

TEST_CASE("bridge stdio: relays over a socket path" * doctest::test_suite("integration")) {
  BridgeRig rig;
  char tmpl[] = "/tmp/lw-relay-XXXXXX";
  REQUIRE(::mkdtemp(tmpl));
  std::string path = std::string(tmpl) + "/b.sock";
  auto server = BridgeServer::listen(path, *rig.session);
  REQUIRE(server);
  Child c = startChild({LOOPWRIGHT_BIN, "bridge", "stdio"}, {{"LOOPWRIGHT_BRIDGE", path}});
  writeAllTo(c.in, R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"github.event"}})"
                   "\n");
  ::close(c.in);
  auto replies = lines(readUntilEof(c.out));
  CHECK(waitChild(c.pid) == 0);
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].at("result").at("structuredContent").at("action") == "opened");
  ::close(c.out);
  ::close(c.err);
  (*server)->stop();
  std::filesystem::remove_all(tmpl);
}

TEST_CASE("bridge stdio: ends when the bridge goes away" * doctest::test_suite("integration")) {
  BridgeRig rig;
  auto pair = makeBridgeSocketPair();
  REQUIRE(pair);
  auto server = BridgeServer::serveFd(std::move(pair->first), *rig.session);
  REQUIRE(server);
  Child c = startChild({LOOPWRIGHT_BIN, "bridge", "stdio"}, {{"LOOPWRIGHT_BRIDGE", "fd:3"}}, pair->second.get());
  pair->second.reset();
  writeAllTo(c.in, R"({"jsonrpc":"2.0","id":1,"method":"ping"})"
                   "\n");
  (*server)->stop();  // as when the pipeline stops the step; stdin stays open
  readUntilEof(c.out, std::chrono::seconds(20));
  CHECK(waitChild(c.pid, std::chrono::seconds(20)) == 0);
  ::close(c.in);
  ::close(c.out);
  ::close(c.err);
}

TEST_CASE("bridge stdio: a missing or wrong LOOPWRIGHT_BRIDGE is a clear error" * doctest::test_suite("integration")) {
  struct Case {
    std::map<std::string, std::string> env;
    int status;
    const char* text;
  };
  const Case cases[] = {
      {{}, 2, "loopwright: error[USAGE_ERROR]: LOOPWRIGHT_BRIDGE is not set"},
      {{{"LOOPWRIGHT_BRIDGE", "fd:x"}}, 2, "loopwright: error[USAGE_ERROR]: LOOPWRIGHT_BRIDGE='fd:x' is not fd:N"},
      {{{"LOOPWRIGHT_BRIDGE", "fd:0"}}, -2, "which is not an open socket"},
      {{{"LOOPWRIGHT_BRIDGE", "/nonexistent/b.sock"}}, -2, "connect to the bridge at /nonexistent/b.sock"},
  };
  for (const Case& k : cases) {
    Child c = startChild({LOOPWRIGHT_BIN, "bridge", "stdio"}, k.env);
    ::close(c.in);
    std::string err = readUntilEof(c.err);
    int status = waitChild(c.pid);
    CAPTURE(err);
    if (k.status >= 0)
      CHECK(status == k.status);
    else
      CHECK(status != 0);
    CHECK(err.find(k.text) != std::string::npos);
    ::close(c.out);
    ::close(c.err);
  }
}
