// A no-follow walk of a directory tree: every entry's lstat data, symlink
// targets, and descriptors relative to their directory, so that nothing the
// walk or a restore does can be redirected by a symlink planted in the tree.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

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
    return type != o.type || size != o.size || mtimeNs != o.mtimeNs || ctimeNs != o.ctimeNs ||
           ino != o.ino || linkTarget != o.linkTarget;
  }
};

// Called for every entry below the root (not the root itself) with its path
// relative to the root ('/'-separated), the descriptor of its directory and
// its name there. `tag` is what the parent directory's call returned (the
// root's tag for top-level entries); for a directory, return the tag its
// children get, or kSkipDir to not descend.
inline constexpr std::uint8_t kSkipDir = 255;
using WalkVisitor = std::function<std::uint8_t(const std::string& rel, const FsStat& st,
                                               int dirFd, const char* name, std::uint8_t tag)>;

// Walks `root` without following symlinks. Entries that vanish during the walk
// are skipped; an unreadable directory fails with IO_ERROR naming it.
Status walkTree(const std::string& root, std::uint8_t rootTag, const WalkVisitor& visit);

// lstat (and readlink) of one entry relative to dirFd; nullopt when it does
// not exist; IO_ERROR for anything else.
Result<std::optional<FsStat>> statNoFollow(int dirFd, const char* name);

// Reads a whole regular file relative to dirFd without following a symlink
// in its last component.
Result<std::string> readFileAt(int dirFd, const char* name);

// Current CLOCK_REALTIME in nanoseconds (the clock file timestamps use).
std::int64_t realtimeNs();

}  // namespace lw::verify
