// Resolving a path the way the kernel would when a step opens it: through
// every symlink (in any component, the working directory included) and '..'
// applied to the resolved parent. Reads the file system (lstat/readlink).
#pragma once

#include <string>

#include "core/result.h"

namespace lw::verify {

struct ResolvedPath {
  std::string given;     // as the step gave it
  std::string absolute;  // resolved; the tail may not exist yet
  bool inside = false;   // inside the workspace's real path
  std::string relative;  // relative to the workspace's real path when inside
};

// Resolves `given` (absolute, or relative to `cwd`) like `realpath -m`.
// Fails with PATH_POLICY_VIOLATION on a symlink loop (more than 40 hops).
Result<ResolvedPath> resolvePath(const std::string& workspace, const std::string& cwd, const std::string& given);

// The real path of a directory, or the input when it cannot be resolved.
std::string realPathOf(const std::string& path);

}  // namespace lw::verify
