#include "sandbox/landlock/private_view.h"

#include <fcntl.h>
#include <linux/mount.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace lw::sandbox::landlock {
namespace {

ino_t mountNamespaceInode() noexcept {
  struct stat st {};
  return stat("/proc/self/ns/mnt", &st) == 0 ? st.st_ino : 0;
}

// glibc 2.36 has no wrappers for the new mount API (Linux 5.2 / 5.12).
int openTreeClone(const char* path) noexcept {
  return static_cast<int>(syscall(SYS_open_tree, AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE));
}

int setEverythingReadOnly() noexcept {
  mount_attr attr{};
  attr.attr_set = MOUNT_ATTR_RDONLY;
  return static_cast<int>(syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &attr, sizeof attr));
}

int attach(int tree, const char* path) noexcept {
  return static_cast<int>(syscall(SYS_move_mount, tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH));
}

void closeAll(const int* fds, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i)
    if (fds[i] >= 0) close(fds[i]);
}

}  // namespace

PreparedView::PreparedView(std::vector<std::string> writableTrees, std::string workdir)
    : writable_(std::move(writableTrees)), workdir_(std::move(workdir)), callerMountNamespace_(mountNamespaceInode()) {}

int PreparedView::apply() const noexcept {
  if (writable_.size() > kMaxWritableTrees) return E2BIG;
  // Never remount the host: this must run in a mount namespace of its own.
  ino_t here = mountNamespaceInode();
  if (here == 0 || here == callerMountNamespace_) return EPERM;
  // Private first, so that nothing below propagates back to the host.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno;
  if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) return errno;
  // Detached copies of the writable trees keep their read-write flag while
  // everything attached is made read-only; then they go back in place.
  int trees[kMaxWritableTrees];
  std::size_t opened = 0;
  for (; opened < writable_.size(); ++opened) {
    trees[opened] = openTreeClone(writable_[opened].c_str());
    if (trees[opened] < 0) {
      int err = errno;
      closeAll(trees, opened);
      return err;
    }
  }
  int err = setEverythingReadOnly() == 0 ? 0 : errno;
  for (std::size_t i = 0; i < opened && err == 0; ++i)
    if (attach(trees[i], writable_[i].c_str()) != 0) err = errno;
  closeAll(trees, opened);
  if (err != 0) return err;
  // The old working directory is the mount beneath the re-attached tree.
  if (!workdir_.empty() && chdir(workdir_.c_str()) != 0) return errno;
  return 0;
}

process::ChildSetup enterPrivateView(std::shared_ptr<const PreparedView> view) {
  return process::ChildSetup{"private mount view", [view] { return view->apply(); }};
}

}  // namespace lw::sandbox::landlock
