#include "sandbox/process/capture.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace lw::sandbox::process {

void BoundedCapture::append(const char* data, std::size_t size) {
  captured_.totalBytes += size;
  std::size_t room = limit_ > captured_.data.size() ? limit_ - captured_.data.size() : 0;
  captured_.data.append(data, std::min(room, size));
  if (sink_) sink_(stream_, data, size);
}

void pump(UniqueFd& fd, BoundedCapture& capture) {
  char buf[65536];
  for (;;) {
    ssize_t r = ::read(fd.get(), buf, sizeof buf);
    if (r > 0) {
      capture.append(buf, static_cast<std::size_t>(r));
      if (static_cast<std::size_t>(r) < sizeof buf) return;
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && errno == EAGAIN) return;
    fd.reset();
    return;
  }
}

}  // namespace lw::sandbox::process
