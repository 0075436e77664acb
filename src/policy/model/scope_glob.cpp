#include "policy/model/scope_glob.h"

#include <fnmatch.h>

namespace lw {
namespace {

std::vector<std::string> componentsOf(std::string_view glob) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= glob.size()) {
    std::size_t end = glob.find('/', start);
    if (end == std::string_view::npos) end = glob.size();
    if (end > start) parts.emplace_back(glob.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

bool hasWildcard(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

// Whether the outer component matches every name the inner one can. An inner
// wildcard is matched only by an outer '*' (fnmatch lets '*' take the
// wildcard characters as text); an outer '?' or '[' could stand for one of
// them as text while the inner one stands for many.
bool componentWithin(const std::string& inner, const std::string& outer) {
  if (inner == outer) return true;
  if (inner == "**") return false;
  if (::fnmatch(outer.c_str(), inner.c_str(), 0) != 0) return false;
  return !hasWildcard(inner) || outer.find_first_of("?[") == std::string::npos;
}

// inner[i..] within outer[j..]: an outer "**" takes any number of inner
// components, "**" included.
bool within(const std::vector<std::string>& inner, std::size_t i, const std::vector<std::string>& outer,
            std::size_t j) {
  if (j == outer.size()) return i == inner.size();
  if (outer[j] == "**") {
    for (std::size_t k = i; k <= inner.size(); ++k)
      if (within(inner, k, outer, j + 1)) return true;
    return false;
  }
  return i < inner.size() && componentWithin(inner[i], outer[j]) && within(inner, i + 1, outer, j + 1);
}

}  // namespace

bool isScopeGlob(std::string_view s) {
  if (s.empty() || s.starts_with("/") || s.starts_with("~")) return false;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find('/', start);
    if (end == std::string_view::npos) end = s.size();
    if (s.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

bool globWithinScope(std::string_view inner, const std::vector<std::string>& scope) {
  if (scope.empty()) return true;
  const std::vector<std::string> in = componentsOf(inner);
  for (const std::string& glob : scope)
    if (within(in, 0, componentsOf(glob), 0)) return true;
  return false;
}

bool isGitRuleFile(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name == ".gitattributes" || name == ".gitignore";
}

}  // namespace lw
