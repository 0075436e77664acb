// npm manifests and lock files: package.json, package-lock.json (also
// Pipfile.lock, the same JSON shape), yarn.lock, pnpm-lock.yaml.
#include <array>

#include "agents/security/file_rules/dependency_rules.h"

namespace lw::agents::security {

namespace {

bool isDependencySection(std::string_view key) {
  return key == "dependencies" || key == "devDependencies" || key == "peerDependencies" ||
         key == "optionalDependencies";
}

// `"key": {` -> key; empty when the line does not open an object.
std::string_view objectKey(std::string_view line) {
  std::string_view t = trim(line);
  if (!t.starts_with("\"") || !t.ends_with("{")) return {};
  std::size_t close = t.find('"', 1);
  if (close == std::string_view::npos) return {};
  std::string_view after = trim(t.substr(close + 1));
  if (after.empty() || after.front() != ':') return {};
  return t.substr(1, close - 1);
}

// Object keys of a lock file that are fields of an entry, not packages.
bool isLockField(std::string_view key) {
  static constexpr std::array kFields = {"packages",
                                         "dependencies",
                                         "devDependencies",
                                         "optionalDependencies",
                                         "peerDependencies",
                                         "peerDependenciesMeta",
                                         "requires",
                                         "engines",
                                         "bin",
                                         "funding",
                                         "_meta",
                                         "default",
                                         "develop",
                                         "hashes",
                                         "sources",
                                         "markers",
                                         "extras"};
  for (const char* f : kFields)
    if (key == f) return true;
  return false;
}

std::string_view afterLast(std::string_view s, std::string_view marker) {
  std::size_t at = s.rfind(marker);
  return at == std::string_view::npos ? s : s.substr(at + marker.size());
}

// "name@1.2.3" or "@scope/name@1.2.3" -> {name, version} at the last '@'
// that is not the first character.
std::pair<std::string_view, std::string_view> splitAtVersion(std::string_view spec) {
  std::size_t at = spec.rfind('@');
  if (at == std::string_view::npos || at == 0) return {spec, {}};
  return {spec.substr(0, at), spec.substr(at + 1)};
}

}  // namespace

std::vector<Dependency> npmManifestDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  bool inSection = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    std::vector<std::string_view> q = quotedStrings(t);
    if (!inSection) {
      inSection = !q.empty() && isDependencySection(q[0]) && t.ends_with("{");
      continue;
    }
    if (t.starts_with("}"))
      inSection = false;
    else if (q.size() >= 2)
      out.push_back({std::string(q[0]), std::string(q[1]), {static_cast<int>(i + 1)}});
  }
  return out;
}

std::vector<Dependency> jsonLockDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  std::string_view current;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view key = objectKey(lines[i]);
    if (!key.empty() || trim(lines[i]).starts_with("\"\":")) {
      if (!isLockField(key)) current = afterLast(key, "node_modules/");
      continue;
    }
    std::vector<std::string_view> q = quotedStrings(trim(lines[i]));
    if (q.size() >= 2 && q[0] == "version" && !current.empty()) {
      out.push_back({std::string(current), std::string(q[1]), {static_cast<int>(i + 1)}});
      current = {};
    }
  }
  return out;
}

std::vector<Dependency> yarnLockDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  std::string name;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (!l.empty() && l[0] != ' ' && l[0] != '#' && l.ends_with(":")) {
      std::string_view first = l.substr(0, l.find(','));
      if (first.ends_with(":")) first.remove_suffix(1);
      if (first.starts_with("\"")) first = first.substr(1, first.find('"', 1) - 1);
      name = std::string(splitAtVersion(first).first);
      continue;
    }
    std::string_view t = trim(l);
    if (name.empty() || !t.starts_with("version")) continue;
    std::string_view v = trim(t.substr(7));
    if (v.starts_with(":")) v = trim(v.substr(1));
    if (v.starts_with("\"")) v = v.substr(1, v.size() >= 2 ? v.size() - 2 : 0);
    out.push_back({name, std::string(v), {static_cast<int>(i + 1)}});
    name.clear();
  }
  return out;
}

std::vector<Dependency> pnpmLockDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  bool inPackages = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (!l.empty() && l[0] != ' ') {
      inPackages = l == "packages:";
      continue;
    }
    if (!inPackages || !l.starts_with("  ") || l.starts_with("   ") || !l.ends_with(":")) continue;
    std::string_view key = trim(l.substr(0, l.size() - 1));
    if (key.size() >= 2 && (key.front() == '\'' || key.front() == '"')) key = key.substr(1, key.size() - 2);
    if (key.starts_with("/")) key.remove_prefix(1);
    key = key.substr(0, key.find('('));  // peer suffix: name@1.0.0(react@18.0.0)
    auto [name, version] = splitAtVersion(key);
    if (version.empty()) {  // lockfile v5: /name/1.2.3
      std::size_t slash = key.rfind('/');
      if (slash != std::string_view::npos) name = key.substr(0, slash), version = key.substr(slash + 1);
    }
    out.push_back({std::string(name), std::string(version), {static_cast<int>(i + 1)}});
  }
  return out;
}

}  // namespace lw::agents::security
