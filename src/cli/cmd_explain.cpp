// `loopwright explain`: the effective policy of every step and the rule that
// produced each field, so a maintainer sees what a run would enforce.
#include <ostream>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "cli/commands.h"
#include "cli/policy_context.h"
#include "cli/report.h"
#include "policy/effective_policy_json.h"

namespace lw::cli {
namespace {

std::string joined(const auto& items) {
  std::string out;
  for (const auto& i : items) {
    if (!out.empty()) out += ", ";
    if constexpr (std::is_same_v<std::decay_t<decltype(i)>, std::string>) out += i;
    else out += toString(i);
  }
  return out.empty() ? "(none)" : out;
}

void row(std::ostream& out, const std::string& field, const std::string& value,
         const std::string& why) {
  out << "  " << field;
  for (std::size_t n = field.size(); n < 30; ++n) out << ' ';
  out << value << "\n";
  if (!why.empty()) out << "  " << std::string(30, ' ') << "← " << why << "\n";
}

void printStep(std::ostream& out, const EffectiveStep& s) {
  const EffectiveSandbox& sb = s.sandbox;
  auto why = [&](const char* f) {
    auto it = s.origins.find(f);
    return it == s.origins.end() ? std::string() : it->second;
  };
  out << "stage " << s.stage << " / step " << s.step << " (role " << toString(s.role) << ")\n";
  row(out, "preferredBackends", joined(sb.preferredBackends), why("preferredBackends"));
  row(out, "networkMode", std::string(toString(sb.networkMode)), why("networkMode"));
  row(out, "requiredCapabilities", joined(sb.requiredCapabilities), why("requiredCapabilities"));
  row(out, "isolation (minimum)", std::string(toString(sb.minIsolation)), why("isolation"));
  row(out, "allowDedicatedDirectOverride", sb.allowDedicatedDirectOverride ? "true" : "false",
      why("allowDedicatedDirectOverride"));
  row(out, "deniedReadPaths", joined(sb.deniedReadPaths), why("deniedReadPaths"));
  row(out, "protectedPaths", joined(sb.protectedPaths), why("protectedPaths"));
  if (sb.runtimeProfile)
    row(out, "runtimeProfile", sb.runtimeProfile->name + " = " + sb.runtimeProfile->image,
        why("runtimeProfile"));
  row(out, "limits",
      "wallTimeMs=" + std::to_string(s.limits.wallTimeMs) +
          " maxModelCalls=" + std::to_string(s.limits.maxModelCalls) +
          " maxToolCalls=" + std::to_string(s.limits.maxToolCalls) +
          " maxOutputBytes=" + std::to_string(s.limits.maxOutputBytes),
      why("limits"));
  row(out, "tools", joined(s.tools), "");
  if (s.lane) row(out, "lane", *s.lane, why("lane"));
  out << "\n";
}

}  // namespace

Command explainCommand() {
  Command c;
  c.name = "explain";
  c.summary = "show the effective sandbox policy of every step, and why";
  c.usage = "[TASKPACK] [--taskpack P] [--repo DIR] [--event-name N]";
  c.description =
      "Merges the defaults, spec.sandbox, each step's override and the host config floor\n"
      "(DESIGN.md §4-5) and names the rule behind every field. With --event-name (e.g.\n"
      "pull_request or pull_request.opened) only the stages that event runs are shown.";
  c.options = {{"taskpack", "P", "the taskpack file"},
               {"repo", "DIR", "repository whose .loopwright/taskpack.yaml to explain"},
               {"event-name", "N", "only stages this event runs: EVENT or EVENT.ACTION"}};
  c.maxPositionals = 1;
  c.run = [](const Args& args, Io& io) {
    auto host = loadHostConfigFrom(io.env);
    if (!host) return reportError(io, host.error());
    auto tp = loadTaskpackFrom(args);
    if (!tp) return reportError(io, tp.error());
    ResolveContext ctx = resolveContextFrom(io.env);
    auto steps = resolvePolicies(*tp, *host, ctx);
    if (!steps) return reportError(io, steps.error());

    std::optional<std::string> event = args.value("event-name");
    std::string eventName, action;
    if (event) {
      auto dot = event->find('.');
      eventName = event->substr(0, dot);
      action = dot == std::string::npos ? "" : event->substr(dot + 1);
    }
    auto selected = [&](const EffectiveStep& s) {
      if (!event) return true;
      for (const Stage& st : tp->stages)
        if (st.name == s.stage) return stageMatchesEvent(st, eventName, action);
      return false;
    };

    if (io.json) {
      boost::json::object o;
      o["taskpack"] = tp->file;
      o["name"] = tp->name;
      o["githubActions"] = ctx.githubActions;
      o["event"] = event ? boost::json::value(*event) : boost::json::value(nullptr);
      o["hostConfig"] = {{"file", host->file}, {"present", host->present},
                         {"floor", toJson(host->floor)}};
      boost::json::array list;
      for (const auto& s : *steps)
        if (selected(s)) list.push_back(toJson(s));
      o["steps"] = std::move(list);
      printJson(io.out, o);
      return 0;
    }
    io.out << "taskpack     " << tp->file << " (" << tp->name << ")\n"
           << "host config  " << host->file
           << (host->present ? "" : " (absent: no floor)") << "\n"
           << "environment  GITHUB_ACTIONS=" << (ctx.githubActions ? "true" : "(not true)") << "\n";
    if (event) io.out << "event        " << *event << "\n";
    io.out << "\n";
    std::size_t shown = 0;
    for (const auto& s : *steps)
      if (selected(s)) {
        printStep(io.out, s);
        ++shown;
      }
    if (shown == 0) io.out << "no stage runs on " << event.value_or("this event") << "\n";
    return 0;
  };
  return c;
}

}  // namespace lw::cli
