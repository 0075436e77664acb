// Bounded capture of a child's output stream: keep at most `limit` bytes,
// count everything, and hand each chunk to an optional live sink.
#pragma once

#include <cstddef>
#include <functional>

#include "core/unique_fd.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

class BoundedCapture {
 public:
  BoundedCapture(std::size_t limit, int stream, std::function<void(int, const char*, std::size_t)> sink)
      : limit_(limit), stream_(stream), sink_(std::move(sink)) {}

  void append(const char* data, std::size_t size);
  const CapturedStream& stream() const { return captured_; }

 private:
  std::size_t limit_;
  int stream_;
  std::function<void(int, const char*, std::size_t)> sink_;
  CapturedStream captured_;
};

// Reads what a non-blocking pipe holds into `capture`; closes `fd` at EOF or
// on an error other than EAGAIN/EINTR.
void pump(UniqueFd& fd, BoundedCapture& capture);

}  // namespace lw::sandbox::process
