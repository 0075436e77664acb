#include "agents/security/file_rules/dependency_rules.h"

#include "agents/security/text.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace lw::agents::security {

namespace {

using Parser = std::vector<Dependency> (*)(const FileLines&);

struct Format {
  std::string_view ecosystem;
  Parser parse = nullptr;
};

Format formatOf(std::string_view path) {
  std::string_view n = baseName(path);
  static const std::pair<std::string_view, Format> kExact[] = {
      {"package.json", {"npm", npmManifestDeps}},
      {"package-lock.json", {"npm", jsonLockDeps}},
      {"npm-shrinkwrap.json", {"npm", jsonLockDeps}},
      {"yarn.lock", {"npm", yarnLockDeps}},
      {"pnpm-lock.yaml", {"npm", pnpmLockDeps}},
      {"pyproject.toml", {"pip", tomlManifestDeps}},
      {"Pipfile", {"pip", tomlManifestDeps}},
      {"Pipfile.lock", {"pip", jsonLockDeps}},
      {"poetry.lock", {"pip", tomlLockDeps}},
      {"go.mod", {"go", goModDeps}},
      {"go.sum", {"go", goSumDeps}},
      {"Cargo.toml", {"cargo", tomlManifestDeps}},
      {"Cargo.lock", {"cargo", tomlLockDeps}},
      {"pom.xml", {"maven", pomDeps}},
      {"gradle.lockfile", {"gradle", gradleLockDeps}},
      {"Gemfile", {"bundler", gemfileDeps}},
      {"Gemfile.lock", {"bundler", gemfileLockDeps}},
  };
  for (const auto& [name, format] : kExact)
    if (n == name) return format;
  if (n.starts_with("requirements") && n.ends_with(".txt")) return {"pip", requirementsDeps};
  if (n == "build.gradle" || n == "build.gradle.kts") return {"gradle", gradleDeps};
  return {};
}

}  // namespace

std::string_view dependencyEcosystem(std::string_view path) { return formatOf(path).ecosystem; }

std::vector<Dependency> parseDependencies(std::string_view path, const FileLines& lines) {
  Format f = formatOf(path);
  return f.parse == nullptr ? std::vector<Dependency>{} : f.parse(lines);
}

std::vector<RuleHit> dependencyHits(std::string_view path, const FileLines& lines) {
  std::vector<RuleHit> out;
  std::string_view eco = dependencyEcosystem(path);
  for (Dependency& d : parseDependencies(path, lines)) {
    std::string version = d.version.empty() ? "" : " `" + d.version + "`";
    out.push_back({"security/new-dependency",
                   "New or changed " + std::string(eco) + " dependency `" + d.name + "`" + version + ".",
                   std::move(d.anchors)});
  }
  return out;
}

std::vector<std::string_view> quotedStrings(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    char q = line[i];
    if (q != '"' && q != '\'') {
      ++i;
      continue;
    }
    std::size_t end = line.find(q, i + 1);
    if (end == std::string_view::npos) break;
    out.push_back(line.substr(i + 1, end - i - 1));
    i = end + 1;
  }
  return out;
}

Dependency pep508(std::string_view requirement, int line) {
  std::string_view r = trim(requirement.substr(0, requirement.find(';')));
  std::size_t end = 0;
  while (end < r.size() &&
         (std::isalnum(static_cast<unsigned char>(r[end])) || r[end] == '-' || r[end] == '_' || r[end] == '.'))
    ++end;
  std::string_view rest = r.substr(end);
  if (rest.starts_with("[")) rest.remove_prefix(std::min(rest.size(), rest.find(']') + 1));
  rest = trim(rest);
  if (rest.starts_with("@")) rest = trim(rest.substr(1));  // name @ url
  return {std::string(r.substr(0, end)), std::string(rest), {line}};
}

}  // namespace lw::agents::security
