// Go, Maven, Gradle and Bundler manifests and lock files.
#include <cctype>
#include <map>

#include "agents/security/file_rules/dependency_rules.h"

namespace lw::agents::security {

namespace {

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// <tag>value</tag> on a trimmed line -> value; empty otherwise.
std::string_view xmlValue(std::string_view line, std::string_view tag) {
  bool opens = line.size() > tag.size() + 2 && line[0] == '<' && line.substr(1, tag.size()) == tag &&
               line[tag.size() + 1] == '>';
  if (!opens) return {};
  std::string_view rest = line.substr(tag.size() + 2);
  std::size_t end = rest.find("</");
  return end == std::string_view::npos ? std::string_view{} : rest.substr(0, end);
}

// Gradle's dependency configurations: implementation, testImplementation,
// api, kapt, classpath …
bool isConfiguration(std::string_view word) {
  for (std::string_view c : {"implementation", "api", "compileOnly", "runtimeOnly", "annotationProcessor", "kapt",
                             "ksp", "classpath", "compile", "developmentOnly", "testCompile"})
    if (word == c) return true;
  for (std::string_view suffix : {"Implementation", "Api", "CompileOnly", "RuntimeOnly", "AnnotationProcessor"})
    if (word.ends_with(suffix)) return true;
  return false;
}

}  // namespace

std::vector<Dependency> goModDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  bool inRequire = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i].substr(0, lines[i].find("//")));
    std::vector<std::string_view> w = words(t);
    if (t == "require (")
      inRequire = true;
    else if (t == ")")
      inRequire = false;
    else if (inRequire && w.size() >= 2)
      out.push_back({std::string(w[0]), std::string(w[1]), {static_cast<int>(i + 1)}});
    else if (w.size() >= 3 && w[0] == "require")
      out.push_back({std::string(w[1]), std::string(w[2]), {static_cast<int>(i + 1)}});
  }
  return out;
}

// Each module version has two lines (its tree and its go.mod): one finding.
std::vector<Dependency> goSumDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::vector<std::string_view> w = words(lines[i]);
    if (w.size() < 3) continue;
    std::string_view version = w[1];
    if (version.ends_with("/go.mod")) version.remove_suffix(7);
    std::string key = std::string(w[0]) + "@" + std::string(version);
    auto [it, fresh] = seen.emplace(key, out.size());
    if (fresh) out.push_back({std::string(w[0]), std::string(version), {}});
    out[it->second].anchors.push_back(static_cast<int>(i + 1));
  }
  return out;
}

std::vector<Dependency> pomDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  bool inBlock = false;
  std::string group, artifact, version;
  std::vector<int> anchors;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    int number = static_cast<int>(i + 1);
    if (t == "<dependency>" || t == "<plugin>") {
      inBlock = true;
      group.clear(), artifact.clear(), version.clear(), anchors.clear();
    } else if (inBlock && (t == "</dependency>" || t == "</plugin>")) {
      inBlock = false;
      if (!artifact.empty()) out.push_back({group.empty() ? artifact : group + ":" + artifact, version, anchors});
    } else if (inBlock) {
      if (auto v = xmlValue(t, "version"); !v.empty())
        version = v, anchors.insert(anchors.begin(), number);
      else if (auto a = xmlValue(t, "artifactId"); !a.empty())
        artifact = a, anchors.push_back(number);
      else if (auto g = xmlValue(t, "groupId"); !g.empty())
        group = g, anchors.push_back(number);
    }
  }
  return out;
}

std::vector<Dependency> gradleDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    std::size_t end = 0;
    while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_')) ++end;
    if (!isConfiguration(t.substr(0, end))) continue;
    for (std::string_view q : quotedStrings(t.substr(end))) {
      std::size_t first = q.find(':');
      if (first == std::string_view::npos) continue;
      std::size_t second = q.find(':', first + 1);
      std::string_view name = q.substr(0, second);
      std::string_view version = second == std::string_view::npos ? std::string_view{} : q.substr(second + 1);
      out.push_back({std::string(name), std::string(version), {static_cast<int>(i + 1)}});
      break;
    }
  }
  return out;
}

std::vector<Dependency> gradleLockDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    if (t.empty() || t.starts_with("#") || t.starts_with("empty=")) continue;
    std::string_view coordinate = t.substr(0, t.find('='));
    std::size_t last = coordinate.rfind(':');
    if (last == std::string_view::npos) continue;
    out.push_back(
        {std::string(coordinate.substr(0, last)), std::string(coordinate.substr(last + 1)), {static_cast<int>(i + 1)}});
  }
  return out;
}

std::vector<Dependency> gemfileDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    if (!t.starts_with("gem ") && !t.starts_with("gem(")) continue;
    std::vector<std::string_view> q = quotedStrings(t);
    if (q.empty()) continue;
    std::string version;
    for (std::size_t k = 1; k < q.size(); ++k) version += (version.empty() ? "" : ", ") + std::string(q[k]);
    out.push_back({std::string(q[0]), version, {static_cast<int>(i + 1)}});
  }
  return out;
}

// The gems under `specs:` are indented four spaces; six are their own
// dependencies, listed again at four where they are resolved.
std::vector<Dependency> gemfileLockDeps(const FileLines& lines) {
  std::vector<Dependency> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (!l.starts_with("    ") || l.starts_with("     ")) continue;
    std::size_t open = l.find(" (");
    if (open == std::string_view::npos || !l.ends_with(")")) continue;
    out.push_back({std::string(trim(l.substr(0, open))),
                   std::string(l.substr(open + 2, l.size() - open - 3)),
                   {static_cast<int>(i + 1)}});
  }
  return out;
}

}  // namespace lw::agents::security
