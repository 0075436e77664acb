#include "verify/path_policy.h"

#include <array>
#include <cctype>

namespace lw::verify {
namespace {

char fold(char c, bool ci) {
  return ci ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
}

// Classic backtracking matcher over bytes; '**' handled as "any, slashes too".
bool match(std::string_view g, std::string_view p, bool ci) {
  std::size_t gi = 0, pi = 0;
  std::size_t starG = std::string_view::npos, starP = 0;
  bool starCrossesSlash = false;
  while (pi < p.size()) {
    if (gi < g.size() && g[gi] == '*') {
      bool dbl = gi + 1 < g.size() && g[gi + 1] == '*';
      gi += dbl ? 2 : 1;
      // "**/" may match zero components.
      if (dbl && gi < g.size() && g[gi] == '/') {
        if (match(g.substr(gi + 1), p.substr(pi), ci)) return true;
      }
      starG = gi;
      starP = pi;
      starCrossesSlash = dbl;
      continue;
    }
    if (gi < g.size() && (g[gi] == '?' ? p[pi] != '/' : fold(g[gi], ci) == fold(p[pi], ci))) {
      ++gi;
      ++pi;
      continue;
    }
    if (starG != std::string_view::npos && (starCrossesSlash || p[starP] != '/')) {
      ++starP;
      pi = starP;
      gi = starG;
      continue;
    }
    return false;
  }
  while (gi < g.size() && g[gi] == '*') ++gi;
  return gi == g.size();
}

std::string_view baseName(std::string_view rel) {
  auto slash = rel.rfind('/');
  return slash == std::string_view::npos ? rel : rel.substr(slash + 1);
}

}  // namespace

const std::vector<std::string>& builtinProtectedGlobs() {
  static const std::vector<std::string> globs = {".github/**", ".loopwright/policies/**",
                                                 "**/AGENTS.md", "**/CLAUDE.md"};
  return globs;
}

bool globMatch(std::string_view glob, std::string_view path, bool caseInsensitive) {
  if (glob.ends_with("/**")) {
    std::string_view dir = glob.substr(0, glob.size() - 3);
    if (match(dir, path, caseInsensitive)) return true;
  }
  return match(glob, path, caseInsensitive);
}

bool isProtectedPath(std::string_view rel, const std::vector<std::string>& extraGlobs) {
  for (const std::string& g : builtinProtectedGlobs())
    if (globMatch(g, rel, true)) return true;
  for (const std::string& g : extraGlobs)
    if (globMatch(g, rel, true)) return true;
  return false;
}

bool isWritablePath(std::string_view rel, const std::vector<std::string>& writableGlobs) {
  for (const std::string& g : writableGlobs)
    if (globMatch(g, rel, false)) return true;
  return false;
}

DependencyKind dependencyKindOf(std::string_view rel) {
  std::string_view n = baseName(rel);
  static constexpr std::array kExact = {
      "package.json",   "package-lock.json", "npm-shrinkwrap.json", "yarn.lock",
      "pnpm-lock.yaml", "pyproject.toml",    "poetry.lock",         "Pipfile",
      "Pipfile.lock",   "setup.py",          "setup.cfg",           "go.mod",
      "go.sum",         "go.work",           "Cargo.toml",          "Cargo.lock",
      "pom.xml",        "gradle.lockfile",   "Gemfile",             "Gemfile.lock",
      "vcpkg.json",     "conanfile.txt",     "conanfile.py",        "composer.json",
      "composer.lock"};
  for (const char* e : kExact)
    if (n == e) return DependencyKind::Manifest;
  if (n.starts_with("requirements") && n.ends_with(".txt")) return DependencyKind::Manifest;
  if (n.starts_with("build.gradle") || n.starts_with("settings.gradle"))
    return DependencyKind::Manifest;
  if (n.starts_with("Gemfile") || n.starts_with("composer.") || n.starts_with("conanfile."))
    return DependencyKind::Manifest;
  if (n == "CMakeLists.txt" || n.ends_with(".cmake")) return DependencyKind::CMakeMaybe;
  return DependencyKind::None;
}

std::string normalizeRelative(std::string_view rel, bool& escapes) {
  escapes = false;
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t slash = rel.find('/', start);
    std::string_view part = rel.substr(start, slash == std::string_view::npos ? rel.npos : slash - start);
    if (part == "..") {
      if (parts.empty()) escapes = true;
      else parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (std::string_view p : parts) {
    if (!out.empty()) out.push_back('/');
    out.append(p);
  }
  return out;
}

}  // namespace lw::verify
