// Every entry below a directory with its type, mode and bytes (a symlink's
// target): two snapshots are equal only when the tree is byte for byte the
// same, .git included.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lw::test {

using TreeSnapshot = std::map<std::string, std::string>;  // relative path -> "mode:content"

inline TreeSnapshot snapshotTree(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  TreeSnapshot snap;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    struct stat st {};
    ::lstat(it->path().c_str(), &st);
    std::string value = std::to_string(st.st_mode) + ":";
    if (S_ISLNK(st.st_mode)) {
      value += fs::read_symlink(it->path()).string();
    } else if (S_ISREG(st.st_mode)) {
      std::ifstream in(it->path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      value += bytes.str();
    }
    snap[fs::relative(it->path(), root).string()] = value;
  }
  return snap;
}

// The paths whose entries differ between `a` and `b` (added, removed, changed).
inline std::vector<std::string> treeDifferences(const TreeSnapshot& a, const TreeSnapshot& b) {
  std::vector<std::string> diff;
  for (const auto& [path, value] : a)
    if (auto it = b.find(path); it == b.end() || it->second != value) diff.push_back(path);
  for (const auto& [path, value] : b)
    if (!a.contains(path)) diff.push_back(path);
  return diff;
}

}  // namespace lw::test
