#include "verify/check/path_policy.h"

#include <array>
#include <cctype>

#include "verify/baseline/watched_paths.h"

namespace lw::verify {
namespace {

char fold(char c, bool ci) { return ci ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c; }

// Recursive matcher; globs come from taskpacks and are short, and each
// '*' stays within one component, so the backtracking is bounded in practice.
bool match(std::string_view g, std::string_view p, bool ci) {
  while (!g.empty()) {
    if (g.starts_with("**")) {
      std::string_view rest = g.substr(2);
      if (rest.starts_with("/")) {  // "**/": zero or more whole components
        rest.remove_prefix(1);
        if (match(rest, p, ci)) return true;
        for (std::size_t k = 0; k < p.size(); ++k)
          if (p[k] == '/' && match(rest, p.substr(k + 1), ci)) return true;
        return false;
      }
      for (std::size_t k = 0; k <= p.size(); ++k)
        if (match(rest, p.substr(k), ci)) return true;
      return false;
    }
    if (g[0] == '*') {
      for (std::size_t k = 0; k <= p.size(); ++k) {
        if (k > 0 && p[k - 1] == '/') break;
        if (match(g.substr(1), p.substr(k), ci)) return true;
      }
      return false;
    }
    if (p.empty()) return false;
    if (g[0] == '?' ? p[0] == '/' : fold(g[0], ci) != fold(p[0], ci)) return false;
    g.remove_prefix(1);
    p.remove_prefix(1);
  }
  return p.empty();
}

std::string_view baseName(std::string_view rel) {
  auto slash = rel.rfind('/');
  return slash == std::string_view::npos ? rel : rel.substr(slash + 1);
}

}  // namespace

const std::vector<std::string>& builtinProtectedGlobs() {
  static const std::vector<std::string> globs = {".github/**", ".loopwright/policies/**", "**/AGENTS.md",
                                                 "**/CLAUDE.md"};
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
  // No glob reaches into a git directory, "**" and "." included.
  if (isInsideGitDir(rel)) return false;
  for (const std::string& g : writableGlobs)
    if (globMatch(g, rel, false)) return true;
  return false;
}

DependencyKind dependencyKindOf(std::string_view rel) {
  std::string_view n = baseName(rel);
  static constexpr std::array kExact = {
      "package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock",     "pnpm-lock.yaml", "pyproject.toml",
      "poetry.lock",  "Pipfile",           "Pipfile.lock",        "setup.py",      "setup.cfg",      "go.mod",
      "go.sum",       "go.work",           "Cargo.toml",          "Cargo.lock",    "pom.xml",        "gradle.lockfile",
      "Gemfile",      "Gemfile.lock",      "vcpkg.json",          "conanfile.txt", "conanfile.py",   "composer.json",
      "composer.lock"};
  for (const char* e : kExact)
    if (n == e) return DependencyKind::Manifest;
  if (n.starts_with("requirements") && n.ends_with(".txt")) return DependencyKind::Manifest;
  if (n.starts_with("build.gradle") || n.starts_with("settings.gradle")) return DependencyKind::Manifest;
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
      if (parts.empty())
        escapes = true;
      else
        parts.pop_back();
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
