// Whether one path lies in another, lexically (no filesystem access): the
// caller normalises both and resolves what must be resolved first.
#pragma once

#include <filesystem>

namespace lw {

// `p` is `root` or lies beneath it.
inline bool isWithinOrSame(const std::filesystem::path& p, const std::filesystem::path& root) {
  const std::filesystem::path rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// `p` lies beneath `root`, and is not `root` itself.
inline bool isStrictlyWithin(const std::filesystem::path& p, const std::filesystem::path& root) {
  const std::filesystem::path rel = p.lexically_relative(root);
  return !rel.empty() && rel != "." && *rel.begin() != "..";
}

}  // namespace lw
