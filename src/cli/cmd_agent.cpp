// `loopwright agent <name> --params JSON`: a built-in step (`uses:
// builtin/<name>`, docs/builtin-steps.md) as the pipeline runs it inside the
// step's sandbox. It reaches GitHub and models only through the step's
// bridge (LOOPWRIGHT_BRIDGE) and writes its results to LOOPWRIGHT_OUT.
#include <csignal>
#include <filesystem>

#include <boost/json/parse.hpp>

#include "agents/bridge_socket_client.h"
#include "agents/registry/agent_registry.h"
#include "bridge/stdio_relay.h"
#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "core/version.h"
#include "policy/builtin/builtin_params.h"

namespace lw::cli {
namespace {

// The parameters from --params (the pipeline passes them resolved; by hand
// any subset may be given), checked against the catalogue.
Result<boost::json::object> agentParams(const BuiltinStep& builtin, const std::optional<std::string>& text) {
  boost::json::object given;
  if (text) {
    boost::json::error_code ec;
    boost::json::value v = boost::json::parse(*text, ec);
    if (ec || !v.is_object())
      return makeError(ErrorCode::UsageError, "--params is not a JSON object",
                       "pass the parameters as --params '{\"name\": value}'");
    given = std::move(v.as_object());
  }
  return resolveParams(builtin, given);
}

int runAgent(const Args& args, Io& io) {
  if (args.positionals().size() != 1)
    return reportError(io, makeError(ErrorCode::UsageError, "agent takes the built-in's name",
                                     "loopwright agent <name> --params JSON"));
  const std::string& name = args.positionals().front();
  const BuiltinStep* builtin = findBuiltinStep(name);
  auto main = agents::findAgent(name);
  if (builtin == nullptr || !main)
    return reportError(io, main ? makeError(ErrorCode::UsageError, "'" + name + "' is not a built-in step",
                                            "see docs/builtin-steps.md")
                                : main.error());
  auto params = agentParams(*builtin, args.value("params"));
  if (!params) return reportError(io, params.error());
  auto out = io.env.get("LOOPWRIGHT_OUT");
  if (!out || out->empty())
    return reportError(io, makeError(ErrorCode::UsageError, "LOOPWRIGHT_OUT is not set",
                                     "run this inside a loopwright step, or set it to a directory"));
  // The bridge going away must end a call with an error, not kill the agent.
  std::signal(SIGPIPE, SIG_IGN);
  auto sock = bridge::connectBridge(io.env);
  if (!sock) return reportError(io, sock.error());
  agents::BridgeSocketClient client(sock->release());
  if (auto init = client.initialize("loopwright-agent-" + name, std::string(kVersion)); !init)
    return reportError(io, init.error());
  std::error_code ec;
  agents::AgentContext ctx{client, *params, std::filesystem::current_path(ec), *out, io.err};
  return (*main)(ctx);
}

}  // namespace

Command agentCommand() {
  Command c;
  c.name = "agent";
  c.summary = "inside a step: run a built-in step (uses: builtin/<name>)";
  c.usage = "<name> [--params JSON]";
  c.description =
      "Runs the built-in step <name> (security, lint, review, triage, reproduce) as a taskpack's\n"
      "`uses: builtin/<name>` does: the parameters are its `with:` as JSON (omitted ones\n"
      "take their defaults), GitHub and the model are reached only through the step's\n"
      "bridge (LOOPWRIGHT_BRIDGE), and the results are written to LOOPWRIGHT_OUT.\n"
      "See docs/builtin-steps.md.";
  c.options = {{"params", "JSON", "the built-in's parameters, a JSON object"}};
  c.maxPositionals = 1;
  c.run = runAgent;
  return c;
}

}  // namespace lw::cli
