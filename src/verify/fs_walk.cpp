#include "verify/fs_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <memory>

namespace lw::verify {
namespace {

Error ioError(const std::string& what, const std::string& path, int err) {
  return makeError(ErrorCode::IoError, what + " '" + path + "': " + std::strerror(err),
                   "check that the workspace is readable by loopwright", path);
}

FsStat fromStat(const struct stat& s) {
  FsStat f;
  if (S_ISREG(s.st_mode)) {
    f.type = FileType::File;
  } else if (S_ISDIR(s.st_mode)) {
    f.type = FileType::Dir;
  } else if (S_ISLNK(s.st_mode)) {
    f.type = FileType::Symlink;
  } else {
    f.type = FileType::Other;
  }
  f.perm = s.st_mode & 07777;
  f.size = f.type == FileType::Dir ? 0 : static_cast<std::uint64_t>(s.st_size);
  f.mtimeNs = static_cast<std::int64_t>(s.st_mtim.tv_sec) * 1000000000 + s.st_mtim.tv_nsec;
  f.ctimeNs = static_cast<std::int64_t>(s.st_ctim.tv_sec) * 1000000000 + s.st_ctim.tv_nsec;
  f.ino = s.st_ino;
  // A directory's times and size change with its contents; what matters is
  // its entries (walked) and its permissions.
  if (f.type == FileType::Dir) f.mtimeNs = f.ctimeNs = 0;
  return f;
}

struct DirCloser {
  void operator()(DIR* d) const { closedir(d); }
};

Status walkDir(int dirFd, const std::string& relDir, const std::string& display,
               std::uint8_t tag, const WalkVisitor& visit) {
  std::unique_ptr<DIR, DirCloser> dir(fdopendir(dirFd));
  if (!dir) {
    int err = errno;
    close(dirFd);
    return ioError("cannot list directory", display, err);
  }
  std::string rel;
  while (true) {
    errno = 0;
    dirent* ent = readdir(dir.get());
    if (ent == nullptr) {
      if (errno != 0) return ioError("cannot list directory", display, errno);
      break;
    }
    const char* name = ent->d_name;
    if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
    rel.assign(relDir);
    if (!rel.empty()) rel.push_back('/');
    rel.append(name);
    auto st = statNoFollow(dirfd(dir.get()), name);
    if (!st) return st.error();
    if (!st->has_value()) continue;  // vanished meanwhile
    const FsStat& fs = **st;
    std::uint8_t childTag = visit(rel, fs, dirfd(dir.get()), name, tag);
    if (fs.type != FileType::Dir || childTag == kSkipDir) continue;
    int fd = openat(dirfd(dir.get()), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) continue;
      return ioError("cannot open directory", display + "/" + name, errno);
    }
    auto status = walkDir(fd, rel, display + "/" + name, childTag, visit);
    if (!status) return status;
  }
  return Ok{};
}

}  // namespace

std::string_view toString(FileType t) {
  switch (t) {
    case FileType::File: return "file";
    case FileType::Dir: return "dir";
    case FileType::Symlink: return "symlink";
    case FileType::Other: return "other";
  }
  return "other";
}

Result<std::optional<FsStat>> statNoFollow(int dirFd, const char* name) {
  struct stat s {};
  if (fstatat(dirFd, name, &s, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<FsStat>{};
    return ioError("cannot stat", name, errno);
  }
  FsStat f = fromStat(s);
  if (f.type == FileType::Symlink) {
    std::string target(static_cast<std::size_t>(s.st_size > 0 ? s.st_size : 256) + 1, '\0');
    ssize_t n = readlinkat(dirFd, name, target.data(), target.size());
    if (n < 0) {
      if (errno == ENOENT) return std::optional<FsStat>{};
      return ioError("cannot read symlink", name, errno);
    }
    target.resize(static_cast<std::size_t>(n));
    f.linkTarget = std::move(target);
  }
  return std::optional<FsStat>(std::move(f));
}

Status walkTree(const std::string& root, std::uint8_t rootTag, const WalkVisitor& visit) {
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ioError("cannot open directory", root, errno);
  return walkDir(fd, "", root, rootTag, visit);
}

Result<std::string> readFileAt(int dirFd, const char* name) {
  int fd = openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
  if (fd < 0 && errno == EPERM) fd = openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return ioError("cannot open", name, errno);
  std::string out;
  struct stat s {};
  if (fstat(fd, &s) == 0 && s.st_size > 0) out.reserve(static_cast<std::size_t>(s.st_size));
  char buf[65536];
  while (true) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      close(fd);
      return ioError("cannot read", name, err);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  return out;
}

std::int64_t realtimeNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace lw::verify
