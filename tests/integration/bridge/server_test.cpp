// The bridge server on real unix sockets: a connected pair (the primary
// form) and a listening path.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cstring>
#include <filesystem>

#include "bridge/jsonrpc.h"
#include "bridge_rig.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::BridgeRig;
namespace json = boost::json;

namespace {

void sendAll(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    REQUIRE(n > 0);
    off += static_cast<std::size_t>(n);
  }
}

// One line from fd, within 10 s ("" on EOF or timeout).
std::string readLine(int fd, std::string& buf) {
  for (;;) {
    auto nl = buf.find('\n');
    if (nl != std::string::npos) {
      std::string line = buf.substr(0, nl);
      buf.erase(0, nl + 1);
      return line;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return "";
    char tmp[65536];
    ssize_t n = ::recv(fd, tmp, sizeof(tmp), 0);
    if (n <= 0) return "";
    buf.append(tmp, static_cast<std::size_t>(n));
  }
}

json::value rpc(int fd, std::string& buf, const std::string& line) {
  sendAll(fd, line + "\n");
  std::string reply = readLine(fd, buf);
  REQUIRE_FALSE(reply.empty());
  return json::parse(reply);
}

std::string tempDir() {
  char tmpl[] = "/tmp/lw-bridge-XXXXXX";
  REQUIRE(::mkdtemp(tmpl) != nullptr);
  return tmpl;
}

}  // namespace

TEST_CASE("bridge server: a connected pair carries a whole MCP exchange" * doctest::test_suite("integration")) {
  BridgeRig rig;
  auto pair = makeBridgeSocketPair();
  REQUIRE(pair);
  int step = pair->second.get();
  auto server = BridgeServer::serveFd(std::move(pair->first), *rig.session);
  REQUIRE(server);
  std::string buf;
  auto init = rpc(
      step, buf,
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  CHECK(init.at("result").at("protocolVersion") == "2025-06-18");
  sendAll(step, R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                "\n");
  auto list = rpc(step, buf, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  std::vector<std::string> names;
  for (const auto& t : list.at("result").at("tools").as_array()) names.emplace_back(t.at("name").as_string());
  CHECK(names == std::vector<std::string>{"echo", "findings.report", "github.event", "model.complete"});
  auto model = rpc(
      step, buf,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"model.complete","arguments":{"messages":[{"role":"user","content":"hi"}]}}})");
  CHECK(model.at("result").at("content").at(0).at("text") == "fake completion 1");
  CHECK(rig.model.requests().at(0).headers["authorization"] == "Bearer sk-rig");

  SUBCASE("several requests in one write, answered in order") {
    sendAll(step, R"({"jsonrpc":"2.0","id":"a","method":"ping"})"
                  "\n"
                  R"({"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"github.event"}})"
                  "\n"
                  "not json\n");
    CHECK(json::parse(readLine(step, buf)).at("id") == "a");
    CHECK(json::parse(readLine(step, buf)).at("result").at("structuredContent").at("pull_request").at("number") == 42);
    CHECK(json::parse(readLine(step, buf)).at("error").at("code").as_int64() == kParseError);
  }
  SUBCASE("a message over 1 MiB is refused once, and the connection goes on") {
    std::string big = R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"x":")" +
                      std::string(kMaxMessageBytes, 'x') + "\"}}}\n";
    std::thread writer([&] { sendAll(step, big); });
    auto err = json::parse(readLine(step, buf));
    writer.join();
    CHECK(err.at("error").at("code").as_int64() == kMessageTooLarge);
    CHECK(err.at("error").at("data").at("code") == "MESSAGE_TOO_LARGE");
    auto after = rpc(step, buf, R"({"jsonrpc":"2.0","id":10,"method":"ping"})");
    CHECK(after.at("id") == 10);
  }
  SUBCASE("the step closing its end ends the connection") {
    ::shutdown(step, SHUT_RDWR);
    for (int i = 0; i < 500 && !(*server)->idle(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK((*server)->idle());
  }
  (*server)->stop();
  CHECK(rig.session->records().size() >= 1);
}

TEST_CASE("bridge server: stop() ends a connection whose peer neither reads nor writes" *
          doctest::test_suite("integration")) {
  BridgeRig rig;
  auto pair = makeBridgeSocketPair();
  REQUIRE(pair);
  auto server = BridgeServer::serveFd(std::move(pair->first), *rig.session);
  REQUIRE(server);
  // Requests whose answers fill the socket buffer while nobody reads them.
  std::string many;
  for (int i = 0; i < 2000; ++i)
    many += R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
            R"(,"method":"tools/list"})"
            "\n";
  ::fcntl(pair->second.get(), F_SETFL, O_NONBLOCK);
  (void)!::send(pair->second.get(), many.data(), many.size(), MSG_NOSIGNAL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto start = std::chrono::steady_clock::now();
  (*server)->stop();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("bridge server: a socket path, 0600 in a private directory" * doctest::test_suite("integration")) {
  BridgeRig rig;
  std::string dir = tempDir();
  std::string path = dir + "/bridge.sock";
  auto server = BridgeServer::listen(path, *rig.session);
  REQUIRE(server);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(S_ISSOCK(st.st_mode));
  CHECK((st.st_mode & 0777) == 0600);
  // Two connections of one step share its session (and its guardrails).
  int fds[2];
  std::string bufs[2];
  for (int& fd : fds) {
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strcpy(a.sun_path, path.c_str());
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0);
  }
  for (int i = 0; i < 4; ++i)
    CHECK(rpc(fds[i % 2], bufs[i % 2],
              R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"same":true}}})")
              .as_object()
              .contains("result"));
  auto fifth =
      rpc(fds[0], bufs[0],
          R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"same":true}}})");
  CHECK(fifth.at("error").at("data").at("code") == "LOOP_DETECTED");
  CHECK(rig.stops.size() == 1);
  for (int fd : fds) ::close(fd);
  (*server)->stop();
  CHECK_FALSE(std::filesystem::exists(path));
  std::filesystem::remove_all(dir);
}

TEST_CASE("bridge server: a socket path is refused outside a private directory, or too long" *
          doctest::test_suite("integration")) {
  BridgeRig rig;
  std::string dir = tempDir();
  ::chmod(dir.c_str(), 0755);
  auto open = BridgeServer::listen(dir + "/b.sock", *rig.session);
  REQUIRE_FALSE(open);
  CHECK(open.error().code == ErrorCode::IoError);
  CHECK(open.error().message == "bridge socket directory " + dir + " is not private to this user");
  auto tooLong = BridgeServer::listen("/tmp/" + std::string(200, 'x'), *rig.session);
  REQUIRE_FALSE(tooLong);
  CHECK(tooLong.error().message.find("longer than 107 bytes") != std::string::npos);
  std::filesystem::remove_all(dir);
}
