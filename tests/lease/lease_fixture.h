// What the lease tests share: a store on a settable clock in a scratch
// directory, and running a check in a child process as another user.
#pragma once

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "lease/local_store.h"
#include "support/temp_dir.h"

namespace lw::lease::test {

inline constexpr std::int64_t kT0 = 1'700'000'000'000;

// A wall clock the test sets.
struct ManualClock {
  std::shared_ptr<std::atomic<std::int64_t>> now = std::make_shared<std::atomic<std::int64_t>>(kT0);
  Clock fn() const {
    return [now = now] { return now->load(); };
  }
  void set(std::int64_t ms) const { now->store(ms); }
};

// A scratch directory others may traverse (mkdtemp makes it 0700), holding
// the store directory `store` (not yet created).
struct StoreScratch {
  lw::test::TempDir tmp;
  std::filesystem::path store;
  StoreScratch() : store(tmp.root / "leases") { ::chmod(tmp.root.c_str(), 0755); }
  // Creates the store directory (0700) owned by `user`, as its own store is.
  void ownedBy(const passwd& user) const {
    std::filesystem::create_directory(store);
    ::chmod(store.c_str(), 0700);
    if (::chown(store.c_str(), user.pw_uid, user.pw_gid) != 0) throw std::runtime_error("chown");
  }
};

// A store in a scratch directory on a clock the test sets; tests take it
// apart: `ClockedStore f; auto& [s, clock, store] = f;`.
struct ClockedStore {
  StoreScratch scratch;
  ManualClock clock;
  LocalStore store{scratch.store, clock.fn()};
};

// The unprivileged user `lwtest` when the tests run as root and it exists.
inline std::optional<passwd> lwtestUser() {
  if (::geteuid() != 0) return std::nullopt;
  passwd* p = ::getpwnam("lwtest");
  return p != nullptr ? std::optional<passwd>(*p) : std::nullopt;
}

// In a forked child: drops to `user`, or exits 99 when it cannot.
inline void becomeUser(const passwd& user) {
  if (::setgroups(0, nullptr) != 0 || ::setgid(user.pw_gid) != 0 || ::setuid(user.pw_uid) != 0) ::_exit(99);
}

// Runs `check` in a child process as `user` and returns what it returned
// (the empty string: every expectation held), or why the child failed.
inline std::string runAs(const passwd& user, const std::function<std::string()>& check) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    becomeUser(user);
    std::string result = check();
    ssize_t n = ::write(fds[1], result.data(), result.size());
    ::_exit(n == static_cast<ssize_t>(result.size()) ? 0 : 98);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "the child as " + std::string(user.pw_name) + " ended with status " + std::to_string(status);
  return out;
}

}  // namespace lw::lease::test
