// An owned file descriptor, and reading whatever a pipe holds into a capture.
#pragma once

#include <unistd.h>

#include "sandbox/process/capture.h"

namespace lw::sandbox::process {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept {
    reset(o.release());
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// A close-on-exec pipe; false (errno set) when pipe2 fails.
bool makePipe(Fd& readEnd, Fd& writeEnd);

// Reads what a non-blocking pipe holds into `capture`; closes `fd` at EOF or
// on an error other than EAGAIN/EINTR.
void pump(Fd& fd, BoundedCapture& capture);

}  // namespace lw::sandbox::process
