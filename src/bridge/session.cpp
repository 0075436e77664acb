#include "bridge/session.h"

#include <algorithm>
#include <exception>
#include <variant>

#include <boost/json/serialize.hpp>

#include "bridge/jsonrpc.h"
#include "core/version.h"
#include "guard/canonical_json.h"
#include "policy/builtin/builtin_params.h"
#include "policy/model/tool_names.h"
#include "verify/outputs/json_schema.h"

namespace lw::bridge {

namespace json = boost::json;

std::vector<std::string> grantsFor(const Step& step) {
  std::vector<std::string> g{tools::kFindingsReport, tools::kGithubEvent};
  if (step.lane) g.push_back(tools::kModelComplete);
  for (const std::string& t : step.tools)
    if (std::find(g.begin(), g.end(), t) == g.end()) g.push_back(t);
  for (const std::string& t : builtinGrants(step))
    if (std::find(g.begin(), g.end(), t) == g.end()) g.push_back(t);
  return g;
}

std::string_view toString(CallOutcome o) {
  switch (o) {
    case CallOutcome::Ok: return "ok";
    case CallOutcome::ToolError: return "tool-error";
    case CallOutcome::NotGranted: return "not-granted";
    case CallOutcome::Invalid: return "invalid";
    case CallOutcome::Refused: return "refused";
  }
  return "unknown";
}

namespace {

bool isGuardrailCode(ErrorCode c) {
  return c == ErrorCode::LoopDetected || c == ErrorCode::BudgetExceeded || c == ErrorCode::BreakerOpen;
}

RpcError guardrailError(const json::value& id, ErrorCode code, const std::string& message, const std::string& subject) {
  json::object data{{"code", codeName(code)}};
  if (!subject.empty()) data["subject"] = subject;
  return RpcError{id, code == ErrorCode::BreakerOpen ? kBreakerOpen : kGuardrailStop,
                  std::string(codeName(code)) + ": " + message, std::move(data)};
}

json::object toolResult(const ToolOutput& out) {
  json::object r;
  std::string text = out.text.empty() ? json::serialize(out.structured) : out.text;
  r["content"] = json::array{json::object{{"type", "text"}, {"text", std::move(text)}}};
  if (out.structured.is_object()) r["structuredContent"] = out.structured;
  r["isError"] = false;
  return r;
}

json::object toolErrorResult(const Error& e) {
  std::string text = "error[" + std::string(codeName(e.code)) + "]: " + e.message;
  if (!e.hint.empty()) text += "\nhint: " + e.hint;
  json::object r;
  r["content"] = json::array{json::object{{"type", "text"}, {"text", std::move(text)}}};
  r["isError"] = true;
  return r;
}

std::string negotiatedVersion(const json::value& params) {
  if (params.is_object())
    if (const json::value* v = params.as_object().if_contains("protocolVersion"); v && v->is_string())
      for (std::string_view known : kProtocolVersions)
        if (v->get_string() == known) return std::string(known);
  return std::string(std::end(kProtocolVersions)[-1]);
}

std::variant<ToolCall, RpcError> readToolCall(const json::value& id, const json::value& params) {
  const json::object* p = params.if_object();
  const json::value* nameV = p ? p->if_contains("name") : nullptr;
  if (nameV == nullptr || !nameV->is_string())
    return RpcError{id, kInvalidParams, "Invalid params: tools/call needs a string 'name'", nullptr};
  ToolCall call;
  call.name = std::string(nameV->get_string());
  if (const json::value* a = p->if_contains("arguments"); a && !a->is_null()) {
    if (!a->is_object()) return RpcError{id, kInvalidParams, "Invalid params: 'arguments' must be an object", nullptr};
    call.args = a->get_object();
  }
  call.canonical = guard::canonicalJson(call.args);
  return call;
}

// An unknown tool and one this step was not granted, told apart; `detail`
// gets what the call record says.
RpcError notGrantedError(const json::value& id, const std::string& name, bool known, const std::string& step,
                         std::string& detail) {
  std::string hint;
  if (!known) {
    detail = "unknown tool '" + name + "'";
    hint = "tools/list shows the tools this step may call";
  } else {
    detail = "tool '" + name + "' is not granted to step '" + step + "'";
    hint = "grant it in the taskpack: tools: [" + name + "] on this step";
  }
  return RpcError{id, kToolNotGranted, detail + "; missing grant: " + name,
                  json::object{{"code", "TOOL_NOT_GRANTED"}, {"tool", name}, {"missingGrant", name}, {"hint", hint}}};
}

}  // namespace

Session::Session(SessionOptions options, const ToolRegistry& tools, guard::BudgetMeter& budget,
                 const guard::Clock& clock)
    : options_(std::move(options)), tools_(tools), budget_(budget), clock_(clock), loop_(options_.loop, clock) {}

std::string Session::tooLarge(std::size_t bytesSoFar) {
  return errorLine(RpcError{nullptr, kMessageTooLarge,
                            "message of " + std::to_string(bytesSoFar) + "+ bytes is larger than " +
                                std::to_string(kMaxMessageBytes) + " bytes",
                            json::object{{"code", "MESSAGE_TOO_LARGE"}, {"limit", kMaxMessageBytes}}});
}

std::optional<std::string> Session::handle(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return std::nullopt;
  try {
    auto parsed = parseMessage(line);
    if (auto* err = std::get_if<RpcError>(&parsed)) return errorLine(*err);
    RpcRequest& req = std::get<RpcRequest>(parsed);
    if (!req.id) return std::nullopt;  // notifications/initialized, cancelled, …: nothing owed
    const json::value& id = *req.id;
    if (req.method == "initialize") {
      json::object r;
      r["protocolVersion"] = negotiatedVersion(req.params);
      r["capabilities"] = json::object{{"tools", json::object{{"listChanged", false}}}};
      r["serverInfo"] = json::object{{"name", "loopwright-bridge"}, {"version", kVersion}};
      r["instructions"] = "Tools of loopwright step '" + options_.step + "'. Report findings with findings.report.";
      return resultLine(id, std::move(r));
    }
    if (req.method == "ping") return resultLine(id, json::object{});
    if (req.method == "tools/list") {
      json::array list;
      for (const Tool* t : tools_.granted(options_.grants))
        list.push_back(
            json::object{{"name", t->name}, {"description", t->description}, {"inputSchema", t->inputSchema}});
      return resultLine(id, json::object{{"tools", std::move(list)}});
    }
    if (req.method == "tools/call") return callTool(id, req.params);
    return errorLine(RpcError{id, kMethodNotFound, "Method not found: " + req.method, nullptr});
  } catch (const std::exception& e) {
    // Allocation failures and the like: the step gets an answer, the bridge lives on.
    return errorLine(RpcError{nullptr, kInternalError, std::string("Internal error: ") + e.what(), nullptr});
  }
}

std::string Session::callTool(const json::value& id, const json::value& params) {
  const guard::TimePoint start = clock_.now();
  auto call = readToolCall(id, params);
  if (auto* bad = std::get_if<RpcError>(&call)) return errorLine(*bad);
  const ToolCall& c = std::get<ToolCall>(call);
  CallRecord rec;
  rec.tool = c.name;
  rec.argsDigest = guard::fingerprint(c.canonical);
  const Tool* tool = tools_.find(c.name);
  const bool granted =
      tool != nullptr && std::find(options_.grants.begin(), options_.grants.end(), c.name) != options_.grants.end();

  // Guardrails first: a step looping on a refused tool is looping all the same.
  const Charge charged = charge(c, granted ? tool : nullptr, rec);
  if (charged.latched) {
    const guard::Event& s = *charged.latched;
    return errorLine(guardrailError(id, s.code, "the step was stopped: " + s.message, s.subject));
  }
  if (const auto& stop = charged.stop) {
    rec.outcome = CallOutcome::Refused;
    rec.detail = stop->message;
    finish(std::move(rec), stop);
    return errorLine(guardrailError(id, stop->code, stop->message, stop->subject));
  }
  if (!granted) {
    RpcError refusal = notGrantedError(id, c.name, tool != nullptr, options_.step, rec.detail);
    rec.outcome = CallOutcome::NotGranted;
    finish(std::move(rec), std::nullopt);
    return errorLine(refusal);
  }
  if (auto bad = verify::validateJson(tool->inputSchema, c.args)) {
    std::string path = bad->path;
    if (path.rfind("$", 0) == 0) path = "arguments" + path.substr(1);
    rec.outcome = CallOutcome::Invalid;
    rec.detail = path + ": " + bad->message;
    finish(std::move(rec), std::nullopt);
    return errorLine(RpcError{id, kInvalidParams, "Invalid params for " + c.name + ": " + path + ": " + bad->message,
                              json::object{{"path", path}}});
  }
  return runTool(id, *tool, c, std::move(rec), start);
}

Session::Charge Session::charge(const ToolCall& call, const Tool* grantedTool, CallRecord& rec) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) {
    ++refusedAfterStop_;
    return Charge{stopped_, std::nullopt};
  }
  Charge out;
  auto add = [&](std::optional<guard::Event> e) {
    if (e && !out.stop) out.stop = e;
    if (e) rec.events.push_back(*e);
  };
  add(budget_.chargeToolCall());
  if (grantedTool != nullptr && grantedTool->modelCall) add(budget_.chargeModelCall());
  if (grantedTool != nullptr && grantedTool->chargesOutput)
    add(budget_.chargeOutputBytes(static_cast<std::int64_t>(call.canonical.size())));
  guard::LoopDecision loop = loop_.record(call.name, call.canonical);
  for (auto& e : loop.events) {
    if (e.kind == guard::EventKind::Stop && !out.stop) out.stop = e;
    rec.events.push_back(std::move(e));
  }
  return out;
}

std::string Session::runTool(const json::value& id, const Tool& tool, const ToolCall& call, CallRecord rec,
                             guard::TimePoint start) {
  ToolContext ctx;
  ctx.step = options_.step;
  Result<ToolOutput> out = makeError(ErrorCode::Internal, "the tool did not run");
  try {
    out = tool.handler(call.args, ctx);
  } catch (const std::exception& e) {
    out = makeError(ErrorCode::Internal, call.name + " failed: " + e.what());
  }
  for (auto& e : ctx.events) rec.events.push_back(std::move(e));
  if (ctx.stop) rec.events.push_back(*ctx.stop);
  rec.duration = std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now() - start);
  std::string line;
  if (ctx.stop) {
    rec.outcome = CallOutcome::Refused;
    rec.detail = ctx.stop->message;
    line = errorLine(guardrailError(id, ctx.stop->code, ctx.stop->message, ctx.stop->subject));
  } else if (!out) {
    const Error& e = out.error();
    rec.detail = e.message;
    rec.outcome = isGuardrailCode(e.code) ? CallOutcome::Refused : CallOutcome::ToolError;
    line = isGuardrailCode(e.code) ? errorLine(guardrailError(id, e.code, e.message, e.subject))
                                   : resultLine(id, toolErrorResult(e));
  } else {
    rec.outcome = CallOutcome::Ok;
    line = resultLine(id, toolResult(*out));
  }
  finish(std::move(rec), ctx.stop);
  return line;
}

void Session::finish(CallRecord record, const std::optional<guard::Event>& stop) {
  std::vector<guard::Event> events = record.events;
  bool firstStop = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    records_.push_back(std::move(record));
    if (stop && !stopped_) {
      stopped_ = stop;
      firstStop = true;
    }
  }
  if (options_.onEvent)
    for (const auto& e : events) options_.onEvent(e);
  if (firstStop && options_.onStop) options_.onStop(*stop);
}

std::size_t Session::refusedAfterStop() const {
  std::lock_guard<std::mutex> lock(mu_);
  return refusedAfterStop_;
}

std::vector<CallRecord> Session::records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return records_;
}

std::optional<guard::Event> Session::stopped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stopped_;
}

}  // namespace lw::bridge
