// A no-follow walk of a directory tree: every entry's lstat data, symlink
// targets, and descriptors relative to their directory, so that nothing the
// walk or a restore does can be redirected by a symlink planted in the tree.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace lw::verify {

enum class FileType : std::uint8_t { File, Dir, Symlink, Other };

std::string_view toString(FileType t);

// What the baseline keeps of an entry's metadata. ctime and the inode change
// on every write, chmod, rename or replacement and cannot be set back by an
// unprivileged process, which is what makes a stat comparison sound.
struct FsStat {
  FileType type = FileType::File;
  std::uint32_t perm = 0;  // st_mode & 07777
  std::uint64_t size = 0;
  std::int64_t mtimeNs = 0;
  std::int64_t ctimeNs = 0;
  std::uint64_t ino = 0;
  std::string linkTarget;  // symlinks only

  // True when the metadata differs in anything that a content change touches.
  bool statDiffers(const FsStat& o) const {
    return type != o.type || size != o.size || mtimeNs != o.mtimeNs || ctimeNs != o.ctimeNs || ino != o.ino ||
           linkTarget != o.linkTarget;
  }
};

// One entry of a directory as the walk saw it. For a directory, the visitor
// sets `tag`: what that directory's own visit receives, or kSkipDir to not
// descend into it.
inline constexpr std::uint8_t kSkipDir = 255;
struct WalkChild {
  std::string name;
  FsStat st;
  std::uint8_t tag = 0;
};

// Called once per directory (the root too, with relDir "") with all of its
// entries, from several threads at once: it must be thread-safe. `dirFd` is
// the directory, open for the duration of the call.
using DirVisitor =
    std::function<void(int dirFd, const std::string& relDir, std::uint8_t tag, std::vector<WalkChild>& children)>;

// Walks `root` without following symlinks, directories in parallel on
// `threads` threads (0: the hardware's, at most 8). Entries that vanish during
// the walk are skipped; an unreadable directory fails with IO_ERROR naming it.
Status walkTreeParallel(const std::string& root, std::uint8_t rootTag, unsigned threads, const DirVisitor& visit);

// lstat (and readlink) of one entry relative to dirFd; nullopt when it does
// not exist; IO_ERROR for anything else.
Result<std::optional<FsStat>> statNoFollow(int dirFd, const char* name);

// Reads a whole regular file relative to dirFd without following a symlink
// in its last component. `expectedSize` (from a stat) saves a read call.
Result<std::string> readFileAt(int dirFd, const char* name, std::uint64_t expectedSize = 0);

// Current CLOCK_REALTIME in nanoseconds (the clock file timestamps use).
std::int64_t realtimeNs();

}  // namespace lw::verify
