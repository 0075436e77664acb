// `loopwright explain`: the effective policy of every step and the rule that
// produced each field, and the backend negotiation picks for it on this host
// with its isolation level, so a maintainer sees what a run would enforce,
// or the BLOCKER a run would stop with (exit 3).
#include <ostream>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "cli/isolation_chain.h"
#include "cli/policy_context.h"
#include "core/error_json.h"
#include "core/step_label.h"
#include "pipeline/step/refusal_blocker.h"
#include "policy/builtin/builtin_params.h"
#include "policy/model/isolation.h"
#include "policy/resolve/effective_policy_json.h"
#include "sandbox/negotiate.h"
#include "sandbox/registry/backend_registry.h"

namespace lw::cli {
namespace {

// What negotiation does for one step on this host, as `run` would do it.
struct StepOutlook {
  Result<sandbox::Negotiated> negotiated;
  std::string blocker;  // set when refused
};

std::string joined(const auto& items) {
  std::string out;
  for (const auto& i : items) {
    if (!out.empty()) out += ", ";
    if constexpr (std::is_same_v<std::decay_t<decltype(i)>, std::string>)
      out += i;
    else
      out += toString(i);
  }
  return out.empty() ? "(none)" : out;
}

void row(std::ostream& out, const std::string& field, const std::string& value, const std::string& why) {
  out << "  " << field;
  for (std::size_t n = field.size(); n < 30; ++n) out << ' ';
  out << value << "\n";
  if (!why.empty()) out << "  " << std::string(30, ' ') << "← " << why << "\n";
}

const Step* stepOf(const Taskpack& tp, const EffectiveStep& s);

// Negotiates every step against this host's backends, each probed once; a
// refused step's BLOCKER is the one `run` would give (its onStop included).
std::vector<StepOutlook> outlooksOf(const Taskpack& tp, const std::vector<const EffectiveStep*>& steps,
                                    const Environment& env) {
  auto backends = sandbox::makeBackends(env);
  sandbox::ProbeFor probeFor = [&](BackendId id) -> const sandbox::ProbeReport* {
    for (auto& b : backends)
      if (b->id() == id) return &b->probe();
    return nullptr;
  };
  std::vector<StepOutlook> out;
  for (const EffectiveStep* s : steps) {
    StepOutlook o{sandbox::negotiate({s->sandbox, false}, probeFor), {}};
    const Step* written = stepOf(tp, *s);
    if (!o.negotiated)
      o.blocker = pipeline::refusalBlocker(stepLabel(s->stage, s->step), o.negotiated.error(), "nothing ran",
                                           written ? written->contract.onStop : std::nullopt);
    out.push_back(std::move(o));
  }
  return out;
}

// The backend row: which backend, its level, and why it (or none) is chosen.
void printNegotiation(std::ostream& out, const EffectiveStep& s, const StepOutlook& o) {
  const char* field = "backend (negotiated here)";
  if (!o.negotiated) {
    const Error& e = o.negotiated.error();
    std::string why;
    for (const Diagnostic& d : e.diagnostics) why += (why.empty() ? "" : "; ") + d.message;
    row(out, field, "none: refused (" + std::string(codeName(e.code)) + ")", why);
    out << "  " << o.blocker << "\n";
    return;
  }
  std::string refused;
  for (const auto& r : o.negotiated->refused)
    refused += (refused.empty() ? "" : "; ") + std::string(toString(r.backend)) + " (" + r.reason + ")";
  const BackendId b = o.negotiated->backend;
  row(out, field, std::string(toString(b)) + ": isolation " + describeLevel(o.negotiated->isolation),
      "the first of preferredBackends that gives " + std::string(toString(s.sandbox.minIsolation)) +
          " and enforces what the policy requires here" + (refused.empty() ? "" : "; refused before it: " + refused));
}

boost::json::object negotiationJson(const StepOutlook& o) {
  boost::json::object j;
  boost::json::array refused;
  const auto& n = o.negotiated;
  if (n)
    for (const auto& r : n->refused) refused.push_back({{"backend", toString(r.backend)}, {"reason", r.reason}});
  j["backend"] = n ? boost::json::value(toString(n->backend)) : boost::json::value(nullptr);
  j["isolation"] = n ? boost::json::value(toString(n->isolation)) : boost::json::value(nullptr);
  j["refused"] = std::move(refused);
  j["error"] = n ? boost::json::value(nullptr) : lw::toJson(n.error());
  j["blocker"] = n ? boost::json::value(nullptr) : boost::json::value(o.blocker);
  return j;
}

// Exit 3 with the refused steps named, as `run` would end; 0 when none is.
int finish(Io& io, const std::vector<const EffectiveStep*>& shown, const std::vector<StepOutlook>& outlooks) {
  std::string names;
  std::size_t count = 0;
  std::optional<ErrorCode> code;
  for (std::size_t i = 0; i < outlooks.size(); ++i)
    if (!outlooks[i].negotiated) {
      names += (names.empty() ? "" : ", ") + stepLabel(shown[i]->stage, shown[i]->step);
      ++count;
      if (!code) code = outlooks[i].negotiated.error().code;
    }
  if (!code) return kExitOk;
  if (io.json) return exitCodeFor(*code);  // each step's negotiation says why
  Io text{io.out, io.err, io.env, false};
  return reportError(text, makeError(*code,
                                     std::to_string(count) + (count == 1 ? " step would be" : " steps would be") +
                                         " refused on this host: " + names,
                                     "each step's BLOCKER above names what is missing"));
}

// The backends the step's level allows, and its escalation chain.
void printIsolationChain(std::ostream& out, const IsolationChain& c) {
  row(out, "backends (" + std::string(toString(c.level)) + " and above)", backendsWords(c.backends),
      "preferredBackends, in order; a lower level is never used instead");
  const pipeline::EscalationPlan& e = c.escalation;
  row(out, "escalation", pipeline::describeChain(e),
      e.to ? "a blocked step is re-run once at " + std::string(toString(*e.to)) +
                 " on: " + backendsWords(c.escalationBackends)
           : "");
}

// A built-in step's name, summary, every parameter (and whether it is the
// default) and the tools the built-in adds to the step's grants.
void printBuiltin(std::ostream& out, const boost::json::value& builtin) {
  if (!builtin.is_object()) return;
  const boost::json::object& b = builtin.as_object();
  row(out, "uses", std::string(b.at("uses").as_string()) + ": " + std::string(b.at("summary").as_string()), "");
  for (const boost::json::value& pv : b.at("params").as_array()) {
    const boost::json::object& p = pv.as_object();
    row(out, "with." + std::string(p.at("name").as_string()), boost::json::serialize(p.at("value")),
        p.at("isDefault").as_bool() ? "default" : "step with:");
  }
  std::vector<std::string> tools;
  for (const boost::json::value& t : b.at("tools").as_array()) tools.emplace_back(t.as_string());
  row(out, "tools (built-in)", joined(tools), "granted to " + std::string(b.at("uses").as_string()));
}

// The taskpack's step an effective policy was resolved from.
const Step* stepOf(const Taskpack& tp, const EffectiveStep& s) {
  for (const Stage& stage : tp.stages)
    for (const Step& step : stage.steps)
      if (stage.name == s.stage && step.name == s.step) return &step;
  return nullptr;
}

// An author step's task contract: what its change must keep before it is
// accepted (docs/taskpack.md, "Task contract").
void printContract(std::ostream& out, const TaskContract& c) {
  if (!c.declared()) return;
  const std::string why =
      "step task contract" + (c.location.line > 0 ? " (line " + std::to_string(c.location.line) + ")" : "");
  auto bound = [](const std::optional<std::int64_t>& n) { return n ? std::to_string(*n) : std::string("(none)"); };
  row(out, "contract.expects", joined(c.expects), why);
  std::string argv;
  for (const std::string& a : c.validate) argv += (argv.empty() ? "" : " ") + a;
  row(out, "contract.validate", argv.empty() ? "(none)" : argv,
      "run on the worktree in the step's sandbox, network none");
  row(out, "contract.maxChangedFiles", bound(c.maxChangedFiles), "");
  row(out, "contract.maxChangedLines", bound(c.maxChangedLines), "added + deleted");
  row(out, "contract.maxBinaryBytes", bound(c.binaryBytesBound()),
      c.maxBinaryBytes || !c.maxChangedLines ? "binary files' sizes before + after"
                                             : "no binary file: the contract bounds lines");
  row(out, "contract.gitRuleFiles", c.gitRuleFiles.empty() ? std::string("(none)") : joined(c.gitRuleFiles),
      "the only .gitattributes and .gitignore files it may change");
  row(out, "contract.onStop", c.onStop.value_or("(none)"), "the next action of the step's BLOCKERs");
}

void printStep(std::ostream& out, const EffectiveStep& s, const StepOutlook& o, const Step* step) {
  const EffectiveSandbox& sb = s.sandbox;
  auto why = [&](const char* f) {
    auto it = s.origins.find(f);
    return it == s.origins.end() ? std::string() : it->second;
  };
  out << "stage " << s.stage << " / step " << s.step << " (role " << toString(s.role) << ")\n";
  row(out, "preferredBackends", joined(sb.preferredBackends), why("preferredBackends"));
  row(out, "networkMode", std::string(toString(sb.networkMode)), why("networkMode"));
  for (const EgressRule& e : sb.egress)
    row(out, "egress", e.host + ":" + std::to_string(e.port) + (e.http.empty() ? "" : " (plain HTTP rules)"),
        why("egress") + " at " + e.origin);
  row(out, "requiredCapabilities", joined(sb.requiredCapabilities), why("requiredCapabilities"));
  row(out, "isolation (minimum)", std::string(toString(sb.minIsolation)), why("isolation"));
  printIsolationChain(out, isolationChainOf(s));
  printNegotiation(out, s, o);
  row(out, "allowDedicatedDirectOverride", sb.allowDedicatedDirectOverride ? "true" : "false",
      why("allowDedicatedDirectOverride"));
  row(out, "deniedReadPaths", joined(sb.deniedReadPaths), why("deniedReadPaths"));
  row(out, "protectedPaths", joined(sb.protectedPaths), why("protectedPaths"));
  if (sb.runtimeProfile)
    row(out, "runtimeProfile", sb.runtimeProfile->name + " = " + sb.runtimeProfile->image, why("runtimeProfile"));
  row(out, "limits",
      "wallTimeMs=" + std::to_string(s.limits.wallTimeMs) + " maxModelCalls=" + std::to_string(s.limits.maxModelCalls) +
          " maxToolCalls=" + std::to_string(s.limits.maxToolCalls) +
          " maxOutputBytes=" + std::to_string(s.limits.maxOutputBytes),
      why("limits"));
  for (ResourceLimit r : kAllResourceLimits) {
    std::string key = "limits." + std::string(keyOf(r));
    row(out, key, formatLimit(r, valueOf(s.resources, r)), why(key.c_str()));
  }
  row(out, "tools", joined(s.tools), "");
  if (step) printBuiltin(out, builtinJson(*step));
  if (step) printContract(out, step->contract);
  if (s.lane) row(out, "lane", *s.lane, why("lane"));
  out << "\n";
}

// The steps an event runs (every step without one), in order.
std::vector<const EffectiveStep*> stepsForEvent(const Taskpack& tp, const std::vector<EffectiveStep>& steps,
                                                const std::optional<std::string>& event) {
  std::string eventName, action;
  if (event) {
    auto dot = event->find('.');
    eventName = event->substr(0, dot);
    action = dot == std::string::npos ? "" : event->substr(dot + 1);
  }
  auto selected = [&](const EffectiveStep& s) {
    if (!event) return true;
    for (const Stage& st : tp.stages)
      if (st.name == s.stage) return stageMatchesEvent(st, eventName, action);
    return false;
  };
  std::vector<const EffectiveStep*> shown;
  for (const auto& s : steps)
    if (selected(s)) shown.push_back(&s);
  return shown;
}

// What explain shows: the files, the context, and each shown step with its
// negotiation on this host.
struct Explanation {
  const Taskpack& tp;
  const HostConfig& host;
  ResolveContext ctx;
  std::optional<std::string> event;
  std::vector<const EffectiveStep*> shown;
  std::vector<StepOutlook> outlooks;
};

boost::json::object explanationJson(const Explanation& e) {
  boost::json::object o;
  o["taskpack"] = e.tp.file;
  o["name"] = e.tp.name;
  o["githubActions"] = e.ctx.githubActions;
  o["event"] = e.event ? boost::json::value(*e.event) : boost::json::value(nullptr);
  o["hostConfig"] = {{"file", e.host.file}, {"present", e.host.present}, {"floor", toJson(e.host.floor)}};
  o["publication"] = {{"patches", toString(e.tp.publication.patches)}};
  boost::json::array list;
  for (std::size_t i = 0; i < e.shown.size(); ++i) {
    boost::json::object step = lw::toJson(*e.shown[i]).as_object();
    step["negotiation"] = negotiationJson(e.outlooks[i]);
    step["isolationChain"] = toJson(isolationChainOf(*e.shown[i]));
    const Step* written = stepOf(e.tp, *e.shown[i]);
    step["builtin"] = written ? builtinJson(*written) : boost::json::value(nullptr);
    step["contract"] =
        written && written->contract.declared() ? lw::toJson(written->contract) : boost::json::value(nullptr);
    list.push_back(std::move(step));
  }
  o["steps"] = std::move(list);
  return o;
}

void printExplanation(std::ostream& out, const Explanation& e) {
  out << "taskpack     " << e.tp.file << " (" << e.tp.name << ")\n"
      << "host config  " << e.host.file << (e.host.present ? "" : " (absent: no floor)") << "\n"
      << "environment  GITHUB_ACTIONS=" << (e.ctx.githubActions ? "true" : "(not true)") << "\n";
  if (e.event) out << "event        " << *e.event << "\n";
  out << "patches      " << toString(e.tp.publication.patches)
      << " (publication.patches: how an author step's accepted change is published)\n";
  out << "\n";
  for (std::size_t i = 0; i < e.shown.size(); ++i)
    printStep(out, *e.shown[i], e.outlooks[i], stepOf(e.tp, *e.shown[i]));
  if (e.shown.empty()) out << "no stage runs on " << e.event.value_or("this event") << "\n";
}

int explainMain(const Args& args, Io& io) {
  auto files = loadPolicyFiles(args, io.env);
  if (!files) return reportError(io, files.error());
  ResolveContext ctx = resolveContextFrom(io.env);
  auto steps = resolvePolicies(files->taskpack, files->host, ctx);
  if (!steps) return reportError(io, steps.error());
  Explanation e{files->taskpack, files->host, ctx, args.value("event-name"), {}, {}};
  e.shown = stepsForEvent(e.tp, *steps, e.event);
  e.outlooks = outlooksOf(e.tp, e.shown, io.env);
  if (io.json)
    printJson(io.out, explanationJson(e));
  else
    printExplanation(io.out, e);
  return finish(io, e.shown, e.outlooks);
}

}  // namespace

Command explainCommand() {
  Command c;
  c.name = "explain";
  c.summary = "show the effective sandbox policy of every step, and why";
  c.usage = "[TASKPACK] [--taskpack P] [--repo DIR] [--event-name N]";
  c.description =
      "Merges the defaults, spec.sandbox, each step's override and the host config floor\n"
      "and names the rule behind every field, then negotiates each step's backend on this\n"
      "host as `run` would: the backend, its isolation level and why. Exits 3 with the\n"
      "BLOCKER a run would stop with when a step would be refused. With --event-name (e.g.\n"
      "pull_request or pull_request.opened) only the stages that event runs are shown.";
  c.options = {{"taskpack", "P", "the taskpack file"},
               {"repo", "DIR", "repository whose .loopwright/taskpack.yaml to explain"},
               {"event-name", "N", "only stages this event runs: EVENT or EVENT.ACTION"}};
  c.maxPositionals = 1;
  c.run = explainMain;
  return c;
}

}  // namespace lw::cli
