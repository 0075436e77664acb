// The one owner of a file descriptor in the tree: it closes the descriptor when
// it goes, and moving it hands the descriptor over.
#pragma once

#include <unistd.h>

#include <utility>

namespace lw {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  // The descriptor, still owned; -1 when there is none.
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  // Gives the descriptor up without closing it; the caller owns it now.
  int release() { return std::exchange(fd_, -1); }
  // Closes the descriptor held (if any) and owns `fd` instead.
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// A close-on-exec pipe; false (errno set) when the pipe cannot be made.
bool makePipe(UniqueFd& readEnd, UniqueFd& writeEnd);

}  // namespace lw
