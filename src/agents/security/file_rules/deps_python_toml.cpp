// Python and Rust manifests and lock files: requirements*.txt, the TOML
// manifests (pyproject.toml, Pipfile, Cargo.toml) and the TOML lock files
// (poetry.lock, Cargo.lock).
#include "agents/security/file_rules/dependency_rules.h"

namespace lw::agents::security {

namespace {

// Tables whose `name = "version"` entries are dependencies.
bool isKeyValueTable(std::string_view table) {
  return table == "packages" || table == "dev-packages" || table == "tool.poetry.dependencies" ||
         table == "tool.poetry.dev-dependencies" ||
         (table.starts_with("tool.poetry.group.") && table.ends_with(".dependencies")) || table == "dependencies" ||
         table == "dev-dependencies" || table == "build-dependencies" || table == "workspace.dependencies" ||
         (table.starts_with("target.") && table.ends_with("dependencies"));
}

// Tables whose arrays hold PEP 508 requirements, and under which keys.
bool isRequirementArray(std::string_view table, std::string_view key) {
  return (table == "project" && key == "dependencies") || table == "project.optional-dependencies" ||
         table == "dependency-groups" || (table == "build-system" && key == "requires");
}

std::string_view tableName(std::string_view header) {
  std::string_view t = trim(header);
  while (t.starts_with("[")) t.remove_prefix(1);
  while (t.ends_with("]")) t.remove_suffix(1);
  return trim(t);
}

// A ']' outside the quoted strings ends the array.
bool closesArray(std::string_view t) {
  char quote = 0;
  for (char c : t) {
    if (quote != 0)
      quote = c == quote ? 0 : quote;
    else if (c == '"' || c == '\'')
      quote = c;
    else if (c == ']')
      return true;
  }
  return false;
}

// `name = "1.0"` or `name = { version = "1.0", features = [...] }`.
void keyValueDep(std::string_view line, int number, std::vector<Dependency>& out) {
  std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) return;
  std::string_view name = trim(line.substr(0, eq));
  if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.size() - 2);
  std::string_view value = trim(line.substr(eq + 1));
  if (name.empty() || name == "python" || name.find(' ') != std::string_view::npos) return;
  std::string version;
  if (value.starts_with("\"") || value.starts_with("'")) {
    std::vector<std::string_view> q = quotedStrings(value);
    if (!q.empty()) version = q[0];
  } else if (std::size_t at = value.find("version"); at != std::string_view::npos) {
    std::vector<std::string_view> q = quotedStrings(value.substr(at));
    if (!q.empty()) version = q[0];
  } else {
    version = value;  // { git = "…" } or { path = "…" }: what it points at
  }
  out.push_back({std::string(name), version, {number}});
}

}  // namespace

std::vector<Dependency> requirementsDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = lines[i];
    if (std::size_t hash = t.find(" #"); hash != std::string_view::npos) t = t.substr(0, hash);
    t = trim(t);
    if (t.empty() || t.starts_with("#") || t.starts_with("-")) continue;
    if (t.ends_with("\\")) t = trim(t.substr(0, t.size() - 1));
    out.push_back(pep508(t.substr(0, t.find(" --")), static_cast<int>(i + 1)));
  }
  return out;
}

std::vector<Dependency> tomlManifestDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  std::string_view table, arrayKey, namedDep;  // namedDep: [dependencies.serde]
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    int number = static_cast<int>(i + 1);
    if (t.starts_with("[") && arrayKey.empty()) {
      table = tableName(t);
      namedDep = {};
      if (std::size_t dot = table.rfind('.'); dot != std::string_view::npos && isKeyValueTable(table.substr(0, dot)))
        namedDep = table.substr(dot + 1);
      continue;
    }
    if (t.empty() || t.starts_with("#")) continue;
    std::string_view key = trim(t.substr(0, t.find('=')));
    if (arrayKey.empty() && t.find('=') != std::string_view::npos && isRequirementArray(table, key) &&
        trim(t.substr(t.find('=') + 1)).starts_with("[")) {
      arrayKey = key;
      t = t.substr(t.find('[') + 1);
    }
    if (!arrayKey.empty()) {
      for (std::string_view r : quotedStrings(t)) out.push_back(pep508(r, number));
      if (closesArray(t)) arrayKey = {};
      continue;
    }
    if (!namedDep.empty() && key == "version") {
      std::vector<std::string_view> q = quotedStrings(t);
      out.push_back({std::string(namedDep), std::string(q.empty() ? "" : q[0]), {number}});
    } else if (isKeyValueTable(table)) {
      keyValueDep(t, number, out);
    }
  }
  return out;
}

std::vector<Dependency> tomlLockDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  std::string name;
  int nameLine = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    if (t == "[[package]]") name.clear();
    std::vector<std::string_view> q = quotedStrings(t);
    if (t.starts_with("name =") && !q.empty())
      name = q[0], nameLine = static_cast<int>(i + 1);
    else if (t.starts_with("version =") && !q.empty() && !name.empty()) {
      out.push_back({name, std::string(q[0]), {static_cast<int>(i + 1), nameLine}});
      name.clear();
    }
  }
  return out;
}

}  // namespace lw::agents::security
