#include "sandbox/docker/log_demux.h"

#include <algorithm>

namespace lw::sandbox::docker {

void LogDemuxer::take(std::string_view bytes) {
  current_->totalBytes += bytes.size();
  if (onData_) onData_(current_ == &err_ ? 2 : 1, bytes.data(), bytes.size());
  const std::size_t room = max_ > current_->data.size() ? max_ - current_->data.size() : 0;
  current_->data.append(bytes.substr(0, std::min(room, bytes.size())));
}

void LogDemuxer::feed(std::string_view piece) {
  while (!piece.empty() && !malformed_) {
    if (frameLeft_ > 0) {
      const std::size_t n = std::min<std::size_t>(frameLeft_, piece.size());
      take(piece.substr(0, n));
      frameLeft_ -= static_cast<std::uint32_t>(n);
      piece.remove_prefix(n);
      continue;
    }
    const std::size_t n = std::min(header_.size() - headerFill_, piece.size());
    std::copy_n(piece.begin(), n, header_.begin() + static_cast<std::ptrdiff_t>(headerFill_));
    headerFill_ += n;
    piece.remove_prefix(n);
    if (headerFill_ < header_.size()) return;
    headerFill_ = 0;
    // Stream 0 is stdin, which the engine only echoes with OpenStdin; it is
    // kept with stdout rather than dropped.
    if (header_[0] > 2 || header_[1] != 0 || header_[2] != 0 || header_[3] != 0) {
      malformed_ = true;
      return;
    }
    current_ = header_[0] == 2 ? &err_ : &out_;
    frameLeft_ = (std::uint32_t{header_[4]} << 24) | (std::uint32_t{header_[5]} << 16) |
                 (std::uint32_t{header_[6]} << 8) | std::uint32_t{header_[7]};
  }
}

}  // namespace lw::sandbox::docker
