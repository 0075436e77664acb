// Pure path decisions for the author role: glob matching of workspace-relative
// paths, the protected paths every step gets, and dependency manifests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lw::verify {

// The paths no step may write, whatever its scope (docs/taskpack.md). AGENTS.md
// and CLAUDE.md are protected at any depth: agents read nested ones too.
const std::vector<std::string>& builtinProtectedGlobs();

// Matches a '/'-separated relative path against a glob anchored at the
// workspace root: '*' and '?' stay within one component, '**' spans any
// number of them (zero included), and "dir/**" also matches "dir" itself.
bool globMatch(std::string_view glob, std::string_view path, bool caseInsensitive = false);

// Protected paths are compared case-insensitively: on a case-insensitive
// file system (macOS, Windows runners) ".GitHub/x" is ".github/x".
bool isProtectedPath(std::string_view rel, const std::vector<std::string>& extraGlobs);

// Writable scope is compared exactly; an empty scope allows nothing, and no
// glob reaches a path inside a git directory (isInsideGitDir).
bool isWritablePath(std::string_view rel, const std::vector<std::string>& writableGlobs);

enum class DependencyKind { None, Manifest, CMakeMaybe };
// Whether a file is a dependency manifest or lock file by its name.
// CMakeMaybe: a CMakeLists.txt, which counts when it uses FetchContent.
DependencyKind dependencyKindOf(std::string_view rel);

// "a/./b/../c" -> "a/c"; nullopt-like "" with `escapes` set when ".." leaves the root.
std::string normalizeRelative(std::string_view rel, bool& escapes);

}  // namespace lw::verify
