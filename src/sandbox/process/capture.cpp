#include "sandbox/process/capture.h"

#include <algorithm>

namespace lw::sandbox::process {

void BoundedCapture::append(const char* data, std::size_t size) {
  captured_.totalBytes += size;
  std::size_t room = limit_ > captured_.data.size() ? limit_ - captured_.data.size() : 0;
  captured_.data.append(data, std::min(room, size));
  if (sink_) sink_(stream_, data, size);
}

}  // namespace lw::sandbox::process
