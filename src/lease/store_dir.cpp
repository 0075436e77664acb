#include "lease/store_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lw::lease {
namespace {

constexpr std::size_t kMaxRecordBytes = 64 * 1024;

Error ioError(const std::string& what, const std::string& path, int err) {
  return makeError(ErrorCode::IoError, what + " " + path + ": " + std::strerror(err),
                   "check the lease store's directory and its permissions", path);
}

Error refusedDir(const std::string& dir, const std::string& why) {
  return makeError(ErrorCode::LeaseUnavailable, "refusing the lease store " + dir + ": " + why,
                   "use a directory of your own with mode 0700 (--store DIR, or the state "
                   "directory of the host config); whoever can write there can forge ownership",
                   dir);
}

// Why the opened directory may not hold leases for this user, or nullopt.
std::optional<std::string> unsafeDir(const struct stat& st) {
  if (!S_ISDIR(st.st_mode)) return "it is not a directory";
  if (st.st_uid != ::geteuid())
    return "it is owned by uid " + std::to_string(st.st_uid) + ", not by uid " + std::to_string(::geteuid());
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) return "it is writable by group or others";
  return std::nullopt;
}

Status createDir(const std::filesystem::path& dir) {
  std::error_code ec;
  if (dir.has_parent_path()) std::filesystem::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return ioError("cannot create the lease store", dir.string(), errno);
  return Ok{};
}

Status writeAll(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ioError("cannot write", path, errno);
    done += static_cast<std::size_t>(n);
  }
  return Ok{};
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Result<StoreDir> StoreDir::open(const std::filesystem::path& dir) {
  if (auto made = createDir(dir); !made) return made.error();
  // O_NOFOLLOW refuses a symlink as the last component (ELOOP), which
  // O_DIRECTORY alone would follow.
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) {
    int err = errno;
    struct stat link {};
    // Linux answers ENOTDIR, not ELOOP, for a symlink opened with both flags.
    if (::lstat(dir.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) return refusedDir(dir.string(), "it is a symlink");
    if (err == ENOTDIR) return refusedDir(dir.string(), "it is not a directory");
    return ioError("cannot open the lease store", dir.string(), err);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return ioError("cannot stat", dir.string(), errno);
  if (auto why = unsafeDir(st)) return refusedDir(dir.string(), *why);
  return StoreDir(dir, std::move(fd));
}

Result<UniqueFd> StoreDir::lock(const std::string& resource) const {
  std::string name = resource + ".lock";
  UniqueFd fd(::openat(fd_.get(), name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd) return ioError("cannot open the lock file", (path_ / name).string(), errno);
  while (::flock(fd.get(), LOCK_EX) != 0)
    if (errno != EINTR) return ioError("cannot lock", (path_ / name).string(), errno);
  return fd;
}

Result<std::optional<std::string>> StoreDir::read(const std::string& resource) const {
  std::string file = recordPath(resource);
  UniqueFd fd(::openat(fd_.get(), (resource + ".json").c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd && errno == ENOENT) return std::optional<std::string>();
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::size_t>(st.st_size) > kMaxRecordBytes)
    return makeError(ErrorCode::LeaseUnavailable,
                     "the lease record " + file +
                         " cannot be read (not a regular file of at "
                         "most 64 KiB, or unreadable); every operation on it is refused",
                     "inspect it and remove it by hand once you know no holder is alive", file);
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  ssize_t n = ::pread(fd.get(), text.data(), text.size(), 0);
  if (n < 0) return ioError("cannot read", file, errno);
  text.resize(static_cast<std::size_t>(n));
  return std::optional<std::string>(std::move(text));
}

Status StoreDir::write(const std::string& resource, const std::string& text) const {
  // A hidden name no resource can have; one writer at a time holds the lock.
  std::string tmp = "." + resource + ".tmp";
  std::string file = recordPath(resource);
  UniqueFd fd(::openat(fd_.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd) return ioError("cannot write", (path_ / tmp).string(), errno);
  if (auto w = writeAll(fd.get(), text, file); !w) return w;
  if (::fsync(fd.get()) != 0) return ioError("cannot sync", file, errno);
  if (::renameat(fd_.get(), tmp.c_str(), fd_.get(), (resource + ".json").c_str()) != 0)
    return ioError("cannot rename over", file, errno);
  if (::fsync(fd_.get()) != 0) return ioError("cannot sync the directory of", file, errno);
  return Ok{};
}

Result<std::vector<std::string>> StoreDir::resources() const {
  DIR* d = ::fdopendir(::dup(fd_.get()));
  if (d == nullptr) return ioError("cannot list", path_.string(), errno);
  ::rewinddir(d);
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name[0] != '.' && endsWith(name, ".json")) names.push_back(name.substr(0, name.size() - 5));
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string StoreDir::recordPath(const std::string& resource) const { return (path_ / (resource + ".json")).string(); }

}  // namespace lw::lease
