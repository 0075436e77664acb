#include "verify/baseline/fs_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <thread>

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

class ParallelWalk {
 public:
  ParallelWalk(std::string root, const DirVisitor& visit) : root_(std::move(root)), visit_(visit) {}

  Status run(int rootFd, std::uint8_t rootTag, unsigned threads) {
    queue_.push_back({rootFd, "", rootTag});
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i) pool.emplace_back([this] { work(); });
    work();
    for (std::thread& t : pool) t.join();
    for (Task& t : queue_) ::close(t.fd);  // left over after an error
    return error_ ? Status(*error_) : Status(Ok{});
  }

 private:
  struct Task {
    int fd;
    std::string rel;
    std::uint8_t tag;
  };
  // Queued directories each hold a descriptor: past this, a worker descends
  // itself (depth first) instead of queueing, so descriptors stay bounded.
  static constexpr std::size_t kMaxQueued = 64;

  void work() {
    std::unique_lock lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return !queue_.empty() || busy_ == 0 || error_; });
      if (error_ || (queue_.empty() && busy_ == 0)) {
        cv_.notify_all();
        return;
      }
      Task t = std::move(queue_.back());
      queue_.pop_back();
      ++busy_;
      lock.unlock();
      process(std::move(t));
      lock.lock();
      --busy_;
      if (queue_.empty() && busy_ == 0) cv_.notify_all();
    }
  }

  void fail(Error e) {
    std::lock_guard lock(mu_);
    if (!error_) error_ = std::move(e);
    cv_.notify_all();
  }

  void process(Task t) {
    std::string display = t.rel.empty() ? root_ : root_ + "/" + t.rel;
    std::unique_ptr<DIR, DirCloser> dir(fdopendir(t.fd));
    if (!dir) {
      int err = errno;
      ::close(t.fd);
      return fail(ioError("cannot list directory", display, err));
    }
    int fd = dirfd(dir.get());
    std::vector<WalkChild> children;
    while (true) {
      errno = 0;
      dirent* ent = readdir(dir.get());
      if (ent == nullptr) {
        if (errno != 0) return fail(ioError("cannot list directory", display, errno));
        break;
      }
      const char* name = ent->d_name;
      if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
      auto st = statNoFollow(fd, name);
      if (!st) return fail(st.error());
      if (!st->has_value()) continue;  // vanished meanwhile
      children.push_back({name, std::move(**st), 0});
    }
    visit_(fd, t.rel, t.tag, children);
    for (WalkChild& c : children) {
      if (c.st.type != FileType::Dir || c.tag == kSkipDir) continue;
      int sub = openat(fd, c.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) {
        if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) continue;
        return fail(ioError("cannot open directory", display + "/" + c.name, errno));
      }
      Task next{sub, t.rel.empty() ? c.name : t.rel + "/" + c.name, c.tag};
      {
        std::lock_guard lock(mu_);
        if (error_) {
          ::close(sub);
          return;
        }
        if (queue_.size() < kMaxQueued) {
          queue_.push_back(std::move(next));
          cv_.notify_one();
          continue;
        }
      }
      process(std::move(next));
    }
  }

  std::string root_;
  const DirVisitor& visit_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Task> queue_;
  int busy_ = 0;
  std::optional<Error> error_;
};

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

Status walkTreeParallel(const std::string& root, std::uint8_t rootTag, unsigned threads, const DirVisitor& visit) {
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ioError("cannot open directory", root, errno);
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  ParallelWalk walk(root, visit);
  return walk.run(fd, rootTag, threads);
}

Result<std::string> readFileAt(int dirFd, const char* name, std::uint64_t expectedSize) {
  int fd = openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
  if (fd < 0 && errno == EPERM) fd = openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return ioError("cannot open", name, errno);
  std::string out;
  if (expectedSize > 0 && expectedSize < (1u << 20)) {
    // One read of size+1: a short count means end of file, no second call.
    out.resize(expectedSize + 1);
    ssize_t n = read(fd, out.data(), out.size());
    if (n >= 0 && static_cast<std::uint64_t>(n) <= expectedSize) {
      out.resize(static_cast<std::size_t>(n));
      close(fd);
      return out;
    }
    out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  }
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
