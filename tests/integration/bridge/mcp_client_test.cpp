// The official MCP TypeScript SDK as the client: StdioClientTransport spawns
// `loopwright bridge stdio`, which relays to a bridge served by this test.
// Needs node and npm; the SDK is installed once into the build tree.
#include <doctest/doctest.h>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "bridge/jsonrpc.h"
#include "bridge_rig.h"
#include "child.h"
#include "support/host_requirement.h"

extern char** environ;

using namespace lw;
using namespace lw::bridge;
using namespace lw::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> hostEnv() {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  if (!env.count("PATH")) env["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  return env;
}

std::string which(const std::string& tool) {
  std::string path = hostEnv()["PATH"];
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    std::string dir = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    fs::path p = fs::path(dir.empty() ? "." : dir) / tool;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

struct Run {
  int status;
  std::string out, err;
};

Run run(const std::vector<std::string>& argv, std::map<std::string, std::string> env, std::chrono::seconds limit) {
  Child c = startChild(argv, env);
  ::close(c.in);
  std::string err;
  std::thread errReader([&] { err = readUntilEof(c.err, limit); });
  std::string out = readUntilEof(c.out, limit);
  errReader.join();
  int status = waitChild(c.pid, limit);
  ::close(c.out);
  ::close(c.err);
  return {status, out, err};
}

// node_modules with the SDK under the build tree, installed when missing.
std::string sdkDir(std::string& why) {
  fs::path dir = fs::path(LOOPWRIGHT_BIN).parent_path() / "test-cache" / "mcp-sdk";
  if (fs::exists(dir / "node_modules/@modelcontextprotocol/sdk/package.json")) return dir.string();
  fs::create_directories(dir);
  std::string npm = which("npm");
  Run r = run({npm, "install", "--prefix", dir.string(), "--no-audit", "--no-fund", "--loglevel=error",
               "@modelcontextprotocol/sdk@^1"},
              hostEnv(), std::chrono::seconds(240));
  if (r.status != 0) {
    why = "npm install @modelcontextprotocol/sdk failed (" + std::to_string(r.status) + "): " + r.err;
    return "";
  }
  return dir.string();
}

const char* kClient = R"JS(
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, bridge] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["bridge", "stdio"],
  env: { LOOPWRIGHT_BRIDGE: bridge, PATH: process.env.PATH },
  stderr: "inherit",
});
const client = new Client({ name: "loopwright-test", version: "1.0.0" });
await client.connect(transport);
const out = { server: client.getServerVersion() };
out.tools = (await client.listTools()).tools.map((t) => t.name);
out.event = (await client.callTool({ name: "github.event", arguments: {} })).structuredContent;
out.report = (await client.callTool({
  name: "findings.report",
  arguments: { findings: [{ ruleId: "sdk/test", severity: "warning", message: "from the SDK", path: "a.c", line: 2 }] },
})).structuredContent;
const model = await client.callTool({
  name: "model.complete",
  arguments: { messages: [{ role: "user", content: "hello" }] },
});
out.model = model.content[0].text;
try {
  await client.callTool({ name: "github.issues.search", arguments: { q: "dup" } });
  out.refused = null;
} catch (e) {
  out.refused = { code: e.code, message: e.message };
}
const invalid = await client.callTool({ name: "findings.report", arguments: { findings: [{ ruleId: "x" }] } })
  .catch((e) => ({ code: e.code }));
out.invalid = invalid.code ?? null;
await client.close();
console.log(JSON.stringify(out));
)JS";

}  // namespace

TEST_CASE("mcp: the official TypeScript SDK client lists and calls tools through bridge stdio" *
          doctest::test_suite("integration")) {
  std::string node = which("node");
  LW_REQUIRE_HOST(!node.empty() && !which("npm").empty(), "node and npm are needed for the MCP SDK client");
  std::string why;
  std::string dir = sdkDir(why);
  LW_REQUIRE_HOST(!dir.empty(), why);
  fs::path script = fs::path(dir) / "client.mjs";
  {
    std::ofstream f(script);
    f << kClient;
  }
  BridgeRig rig;
  char tmpl[] = "/tmp/lw-mcp-XXXXXX";
  REQUIRE(::mkdtemp(tmpl));
  std::string path = std::string(tmpl) + "/b.sock";
  auto server = BridgeServer::listen(path, *rig.session);
  REQUIRE(server);

  Run r = run({node, script.string(), LOOPWRIGHT_BIN, path}, hostEnv(), std::chrono::seconds(120));
  CAPTURE(r.err);
  CAPTURE(r.out);
  REQUIRE(r.status == 0);
  json::value out = json::parse(r.out);
  CHECK(out.at("server").at("name") == "loopwright-bridge");
  CHECK(out.at("tools") == json::parse(R"(["echo","findings.report","github.event","model.complete"])"));
  CHECK(out.at("event").at("pull_request").at("number") == 42);
  CHECK(out.at("report").at("accepted") == 1);
  CHECK(out.at("model") == "fake completion 1");
  CHECK(out.at("refused").at("code") == kToolNotGranted);
  CHECK(out.at("refused").at("message").as_string().find("missing grant: github.issues.search") != std::string::npos);
  CHECK(out.at("invalid") == kInvalidParams);
  auto findings = rig.findings.snapshot();
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].ruleId == "sdk/test");
  CHECK(findings[0].step == "review/security");
  (*server)->stop();
  fs::remove_all(tmpl);
}
