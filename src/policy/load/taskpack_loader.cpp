#include "policy/load/taskpack_loader.h"

#include <algorithm>
#include <exception>

#include "core/file_io.h"
#include "policy/builtin/builtin_params.h"
#include "policy/load/sandbox_spec_reader.h"
#include "policy/load/stage_reader.h"
#include "policy/load/tuning_reader.h"
#include "policy/model/escalation_rule.h"
#include "policy/model/tool_names.h"
#include "policy/yaml/yaml_document.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {
namespace {

void readPublication(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, Publication& out) {
  auto entries = reader.mapping(node, path, {"review", "checks", "summary", "failOn", "maxInlineComments", "patches"});
  if (!entries) return;
  for (const MapEntry& e : *entries) {
    std::string p = childPath(path, e.key);
    if (e.key == "review") {
      if (auto s = reader.oneOf(e.value, p, {"comment", "request-changes", "none"})) out.review = *reviewModeNamed(*s);
    } else if (e.key == "checks") {
      if (auto b = reader.boolean(e.value, p)) out.checks = *b;
    } else if (e.key == "summary") {
      if (auto b = reader.boolean(e.value, p)) out.summary = *b;
    } else if (e.key == "failOn") {
      if (auto s = reader.oneOf(e.value, p, {"error", "warning", "never"})) out.failOn = *failOnNamed(*s);
    } else if (e.key == "maxInlineComments") {
      if (auto v = reader.integer(e.value, p, 0, 1000)) out.maxInlineComments = static_cast<int>(*v);
    } else if (e.key == "patches") {
      if (auto s = reader.oneOf(e.value, p, {"suggestions", "branch", "none"}))
        out.patches = *patchPublicationNamed(*s);
    }
  }
}

void readSpec(YamlSchemaReader& reader, const YAML::Node& node, const std::string& homeDir, Taskpack& tp) {
  auto entries = reader.mapping(
      node, "spec",
      {"sandbox", "isolation", "guardrails", "limits", "maxConcurrency", "lanes", "stages", "publication"}, {"stages"});
  if (!entries) return;
  for (const MapEntry& e : *entries) {
    std::string p = childPath("spec", e.key);
    if (e.key == "sandbox") {
      tp.sandbox = readSandboxSpec(reader, e.value, p, homeDir);
    } else if (e.key == "isolation") {
      tp.isolationLocation = reader.locate(e.value, p);
      if (auto s = reader.oneOf(e.value, p, {"L1", "L2", "L3"})) tp.isolation = parseIsolation(*s);
    } else if (e.key == "guardrails") {
      readGuardrails(reader, e.value, p, tp.guardrails);
    } else if (e.key == "limits") {
      readLimits(reader, e.value, p, tp.limits, tp.resourceLimits);
    } else if (e.key == "maxConcurrency") {
      if (auto v = reader.integer(e.value, p, 1, 64)) tp.maxConcurrency = static_cast<int>(*v);
    } else if (e.key == "lanes") {
      readLanes(reader, e.value, p, tp.lanes);
    } else if (e.key == "stages") {
      readStages(reader, e.value, p, homeDir, tp.stages);
    } else if (e.key == "publication") {
      readPublication(reader, e.value, p, tp.publication);
    }
  }
}

const Lane* laneNamed(const Taskpack& tp, const std::string& name) {
  for (const Lane& l : tp.lanes)
    if (l.name == name) return &l;
  return nullptr;
}

// References between parts of the document, checked once everything is read.
// A step that sets no level of its own runs at spec.isolation: its
// escalate.to must be above that (the step's own level is checked when the
// step is read, before spec.isolation may have been).
void checkEscalateAboveTaskpack(YamlSchemaReader& reader, const Taskpack& tp, const Step& step) {
  if (!tp.isolation || step.isolation || !step.escalate || !step.escalate->to) return;
  if (isAbove(*step.escalate->to, *tp.isolation)) return;
  auto above = levelAbove(*tp.isolation);
  reader.errorAt(step.escalate->toLocation,
                 "escalate.to " + std::string(toString(*step.escalate->to)) + " is not above spec.isolation " +
                     std::string(toString(*tp.isolation)) + ", the level this step runs at",
                 above ? "set to: " + std::string(toString(*above)) + " or higher, or remove 'escalate'"
                       : "a step at L3 cannot escalate: remove 'escalate'");
}

// networkMode allow-list and an egress list go together, after the step's
// override is laid over spec.sandbox (either may give either).
void checkEgressPairing(YamlSchemaReader& reader, const Taskpack& tp, const Step& step) {
  auto pick = [&](auto field) {
    if (step.sandbox && (*step.sandbox).*field) return (*step.sandbox).*field;
    return tp.sandbox ? (*tp.sandbox).*field : decltype((*tp.sandbox).*field){};
  };
  const auto mode = pick(&SandboxSpec::networkMode);
  const auto egress = pick(&SandboxSpec::egress);
  const bool allowList = mode == NetworkMode::AllowList;
  if (allowList && (!egress || egress->empty()))
    reader.errorAt(step.location, "step '" + step.name + "' has networkMode allow-list but no egress entries",
                   "list the hosts it may reach under sandbox.egress, or use networkMode: none");
  else if (!allowList && egress && !egress->empty())
    reader.errorAt(step.location,
                   "step '" + step.name + "' lists sandbox.egress but its networkMode is " +
                       std::string(toString(mode.value_or(NetworkMode::None))),
                   "set networkMode: allow-list (the list is enforced only there), or remove egress");
}

void checkReferences(YamlSchemaReader& reader, const Taskpack& tp) {
  auto diag = [&](const Location& loc, std::string message, std::string hint) {
    reader.errorAt(loc, std::move(message), std::move(hint));
  };
  for (const Lane& lane : tp.lanes) {
    if (lane.fallbackLane && (!laneNamed(tp, *lane.fallbackLane) || *lane.fallbackLane == lane.name))
      diag(lane.location, "fallbackLane '" + *lane.fallbackLane + "' is not another lane",
           "name a different lane defined under spec.lanes");
  }
  for (const Stage& stage : tp.stages) {
    for (const Step& step : stage.steps) {
      if (step.lane && !laneNamed(tp, *step.lane))
        diag(step.location, "lane '" + *step.lane + "' is not defined", "define it under spec.lanes, or remove 'lane'");
      bool usesModel = std::find(step.tools.begin(), step.tools.end(), tools::kModelComplete) != step.tools.end();
      if (usesModel && !step.lane && tp.lanes.size() != 1)
        diag(step.location, "step uses model.complete but names no lane",
             "add lane: <name> (needed when spec.lanes does not hold exactly one lane)");
      if (step.lane && !stepCallsModel(step))
        diag(step.location, "step names a lane but is not granted model.complete",
             "add model.complete to its tools, or remove 'lane'");
      checkEscalateAboveTaskpack(reader, tp, step);
      checkEgressPairing(reader, tp, step);
    }
  }
}

}  // namespace

Result<Taskpack> parseTaskpack(std::string_view text, const std::string& file, const TaskpackLoadOptions& options) {
  std::vector<Diagnostic> diagnostics;
  Taskpack tp;
  tp.file = file;
  try {
    auto root = parseYamlDocument(text, file, kTaskpackMaxBytes, diagnostics);
    if (root) {
      YamlSchemaReader reader(file);
      auto top = reader.mapping(*root, "", {"apiVersion", "kind", "metadata", "spec"},
                                {"apiVersion", "kind", "metadata", "spec"});
      if (top) {
        for (const MapEntry& e : *top) {
          if (e.key == "apiVersion") {
            reader.oneOf(e.value, "apiVersion", {kTaskpackApiVersion});
          } else if (e.key == "kind") {
            reader.oneOf(e.value, "kind", {"Taskpack"});
          } else if (e.key == "metadata") {
            if (auto meta = reader.mapping(e.value, "metadata", {"name"}, {"name"})) {
              YAML::Node name = find(*meta, "name");
              if (name.IsDefined())
                if (auto s = reader.name(name, "metadata.name")) tp.name = *s;
            }
          } else if (e.key == "spec") {
            readSpec(reader, e.value, options.homeDir, tp);
          }
        }
        checkBuiltinSteps(reader, tp);  // first: gives a built-in that calls a model its lane
        checkReferences(reader, tp);
      }
      diagnostics = reader.takeDiagnostics();
    }
  } catch (const std::exception& e) {
    // yaml-cpp may throw from node access on malformed trees; never let it escape.
    diagnostics.push_back({{file, 0, 0, ""}, std::string("cannot be read: ") + e.what(), ""});
  }
  if (diagnostics.empty()) return tp;
  Error error =
      makeError(ErrorCode::TaskpackInvalid,
                file + ": " + std::to_string(diagnostics.size()) + (diagnostics.size() == 1 ? " problem" : " problems"),
                "fix each problem listed; 'loopwright validate' checks the file again", file);
  error.diagnostics = std::move(diagnostics);
  return error;
}

Result<Taskpack> loadTaskpack(const std::string& path, const TaskpackLoadOptions& options) {
  auto text = readBoundedFile(path, kTaskpackMaxBytes, ErrorCode::TaskpackInvalid);
  if (!text) return text.error();
  return parseTaskpack(*text, path, options);
}

}  // namespace lw
