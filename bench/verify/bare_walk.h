// The floor of a baseline + check: what any verification that observes the
// tree before and after a step must do at least — every entry fstatat'ed
// once before and once after, and the ignored files (which the index does
// not hold) read once before — with nothing else: no index, no tables, no
// comparison, no store. Threads share a stack of directories, as many as
// loopwright's own walk uses, and sleep while it is empty.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace lw::bench {

class BareWalk {
 public:
  // Walks `root` (skipping .git); with `readUnder` set, reads every file
  // below a directory of that name. Returns the entries seen.
  static long run(const std::string& root, const char* readUnder, unsigned threads) {
    BareWalk w(readUnder);
    w.stack_.push_back({::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), false});
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i) pool.emplace_back([&w] { w.work(); });
    w.work();
    for (std::thread& t : pool) t.join();
    return w.entries_;
  }

 private:
  explicit BareWalk(const char* readUnder) : readUnder_(readUnder) {}

  void work() {
    std::unique_lock lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return !stack_.empty() || busy_ == 0; });
      if (stack_.empty()) {
        cv_.notify_all();
        return;
      }
      std::pair<int, bool> dir = stack_.back();
      stack_.pop_back();
      ++busy_;
      lock.unlock();
      list(dir.first, dir.second);
      lock.lock();
      --busy_;
    }
  }

  void list(int fd, bool read) {
    DIR* d = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (d == nullptr) {
      if (fd >= 0) ::close(fd);
      return;
    }
    char buf[4096];
    while (dirent* e = ::readdir(d)) {
      const char* n = e->d_name;
      if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0) || std::strcmp(n, ".git") == 0)) continue;
      struct stat st {};
      if (::fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      ++entries_;
      if (S_ISDIR(st.st_mode)) {
        int sub = ::openat(fd, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        bool readSub = read || (readUnder_ != nullptr && std::strcmp(n, readUnder_) == 0);
        std::lock_guard lock(mu_);
        stack_.push_back({sub, readSub});
        cv_.notify_one();
      } else if (read && S_ISREG(st.st_mode)) {
        int f = ::openat(fd, n, O_RDONLY | O_CLOEXEC | O_NOATIME);
        while (f >= 0 && ::read(f, buf, sizeof buf) > 0) {}
        if (f >= 0) ::close(f);
      }
    }
    ::closedir(d);
  }

  const char* readUnder_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<int, bool>> stack_;
  int busy_ = 0;
  std::atomic<long> entries_{0};
};

}  // namespace lw::bench
