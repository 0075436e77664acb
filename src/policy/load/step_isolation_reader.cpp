#include "policy/load/step_isolation_reader.h"

#include "policy/model/escalation_rule.h"

namespace lw {
namespace {

std::optional<Isolation> readLevel(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path) {
  auto s = reader.oneOf(node, path, {"L1", "L2", "L3"});
  return s ? parseIsolation(*s) : std::nullopt;
}

std::vector<std::string_view> triggerNames() {
  std::vector<std::string_view> names;
  for (EscalationTrigger t : kAllEscalationTriggers) names.push_back(toString(t));
  return names;
}

EscalateSpec readEscalate(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path) {
  EscalateSpec spec;
  spec.location = reader.locate(node, path);
  auto entries = reader.mapping(node, path, {"on", "to"});
  if (!entries) return spec;
  for (const MapEntry& e : *entries) {
    std::string fp = childPath(path, e.key);
    if (e.key == "on") {
      if (auto list = reader.stringList(e.value, fp, 1, kAllEscalationTriggers.size(), triggerNames()))
        for (const std::string& name : *list) spec.on.push_back(*parseEscalationTrigger(name));
    } else if (e.key == "to") {
      spec.toLocation = reader.locate(e.value, fp);
      spec.to = readLevel(reader, e.value, fp);
    }
  }
  return spec;
}

}  // namespace

void readStepIsolationKey(YamlSchemaReader& reader, const MapEntry& entry, const std::string& path, Step& step) {
  if (entry.key == "isolation") {
    step.isolationLocation = reader.locate(entry.value, path);
    step.isolation = readLevel(reader, entry.value, path);
  } else if (entry.key == "escalate") {
    step.escalate = readEscalate(reader, entry.value, path);
  }
}

void checkEscalateLevel(YamlSchemaReader& reader, const Step& step) {
  if (!step.escalate || !step.escalate->to) return;
  const Isolation own = step.isolation.value_or(Isolation::L1);
  const Isolation to = *step.escalate->to;
  if (isAbove(to, own)) return;
  const std::string ownWords =
      step.isolation ? "the step's isolation " + std::string(toString(own)) : "the step's level (L1 by default)";
  auto above = levelAbove(own);
  reader.errorAt(step.escalate->toLocation,
                 "escalate.to " + std::string(toString(to)) + " is not above " + ownWords +
                     ": escalation never stays at a level or goes below it",
                 above ? "set to: " + std::string(toString(*above)) + " or higher, or remove 'escalate'"
                       : "a step at L3 cannot escalate: remove 'escalate'");
}

}  // namespace lw
