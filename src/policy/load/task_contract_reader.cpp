#include "policy/load/task_contract_reader.h"

#include <algorithm>

#include "policy/model/scope_glob.h"

namespace lw {
namespace {

constexpr std::int64_t kMaxChangedFilesBound = 100'000;
constexpr std::int64_t kMaxChangedLinesBound = 10'000'000;
constexpr std::int64_t kMaxBinaryBytesBound = 1LL << 30;
constexpr std::size_t kOnStopMaxLength = 500;

void readExpects(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, TaskContract& out) {
  auto list = reader.stringList(node, path, 1, 64, {}, 1024);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i)
    if (!isScopeGlob((*list)[i]))
      reader.error(node[i], indexPath(path, i), "'" + (*list)[i] + "' is not a path inside the workspace",
                   "write a relative path or glob without '..', e.g. src/**/*.c");
  out.expects = *list;
}

// Exact paths, each of a .gitattributes or .gitignore file: a contract
// names every rule file it lets the step change (a glob would let it add
// one anywhere below).
void readGitRuleFiles(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, TaskContract& out) {
  auto list = reader.stringList(node, path, 1, 64, {}, 1024);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string& p = (*list)[i];
    if (!isScopeGlob(p) || p.find_first_of("*?[") != std::string::npos)
      reader.error(node[i], indexPath(path, i), "'" + p + "' is not an exact path inside the workspace",
                   "write the file's relative path without wildcards or '..', e.g. src/.gitignore");
    else if (!isGitRuleFile(p))
      reader.error(node[i], indexPath(path, i), "'" + p + "' is not a .gitattributes or .gitignore file",
                   "gitRuleFiles lists only the .gitattributes and .gitignore files the step may change");
  }
  out.gitRuleFiles = *list;
}

// An argv, not a shell line: each item one argument, none empty.
void readValidate(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, TaskContract& out) {
  std::vector<std::string> argv;
  bool fine = reader.sequence(node, path, 1, 64, [&](const YAML::Node& n, const std::string& p) {
    auto s = reader.string(n, p, 4096);
    if (s && s->empty()) reader.error(n, p, "is an empty argument", "remove it, or write the argument it stands for");
    if (!s || s->empty()) return;
    argv.push_back(*s);
  });
  if (fine && argv.size() == node.size()) out.validate = std::move(argv);
}

void readOnStop(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, TaskContract& out) {
  auto s = reader.string(node, path, kOnStopMaxLength);
  if (!s) return;
  if (s->empty() || s->find_first_of("\r\n") != std::string::npos) {
    reader.error(node, path, s->empty() ? "is empty" : "spans more than one line",
                 "onStop is the one line a BLOCKER gives as its next action");
    return;
  }
  out.onStop = *s;
}

// Each entry of the list under `key` inside the step's writable scope.
void checkWithinScope(YamlSchemaReader& reader, const std::vector<MapEntry>& entries, const std::string& stepPath,
                      const std::string& key, const std::vector<std::string>& globs,
                      const std::vector<std::string>& writable, const std::string& hint) {
  const YAML::Node node = find(entries, key);
  for (std::size_t i = 0; i < globs.size(); ++i)
    if (isScopeGlob(globs[i]) && !globWithinScope(globs[i], writable))
      reader.error(node[i], indexPath(childPath(stepPath, key), i),
                   "'" + globs[i] + "' is outside the step's writable scope", hint);
}

}  // namespace

bool isTaskContractKey(std::string_view key) {
  return std::find(kTaskContractKeys.begin(), kTaskContractKeys.end(), key) != kTaskContractKeys.end();
}

void readTaskContractKey(YamlSchemaReader& reader, const MapEntry& entry, const std::string& path, TaskContract& out) {
  if (!out.location.known()) out.location = reader.locate(entry.keyNode, path);
  if (entry.key == "expects")
    readExpects(reader, entry.value, path, out);
  else if (entry.key == "validate")
    readValidate(reader, entry.value, path, out);
  else if (entry.key == "maxChangedFiles")
    out.maxChangedFiles = reader.integer(entry.value, path, 1, kMaxChangedFilesBound);
  else if (entry.key == "maxChangedLines")
    out.maxChangedLines = reader.integer(entry.value, path, 1, kMaxChangedLinesBound);
  else if (entry.key == "maxBinaryBytes")
    out.maxBinaryBytes = reader.integer(entry.value, path, 1, kMaxBinaryBytesBound);
  else if (entry.key == "gitRuleFiles")
    readGitRuleFiles(reader, entry.value, path, out);
  else if (entry.key == "onStop")
    readOnStop(reader, entry.value, path, out);
}

void checkTaskContract(YamlSchemaReader& reader, const std::vector<MapEntry>& entries, const std::string& stepPath,
                       const Step& step) {
  if (step.role != Role::Author) {
    for (const MapEntry& e : entries)
      if (isTaskContractKey(e.key))
        reader.error(e.keyNode, childPath(stepPath, e.key), "only an author step has a task contract ('" + e.key + "')",
                     "set role: author, or remove '" + e.key + "'");
    return;
  }
  checkWithinScope(reader, entries, stepPath, "expects", step.contract.expects, step.writable,
                   "the step may write only its writable: paths; expect a change inside them");
  checkWithinScope(reader, entries, stepPath, "gitRuleFiles", step.contract.gitRuleFiles, step.writable,
                   "the step may write only its writable: paths; list rule files inside them");
}

}  // namespace lw
