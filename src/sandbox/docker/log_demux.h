// The Engine API's multiplexed stream (containers created without a TTY):
// frames of an 8-byte header {stream, 0, 0, 0, size as big-endian uint32}
// then `size` bytes. Fed in arbitrary pieces; keeps at most `maxBytes` per
// stream and counts the rest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::docker {

class LogDemuxer {
 public:
  // `onData` (optional) sees every payload byte, unbounded: 1 = stdout, 2 = stderr.
  using OnData = std::function<void(int stream, const char* data, std::size_t size)>;
  explicit LogDemuxer(std::size_t maxBytesPerStream, OnData onData = {})
      : max_(maxBytesPerStream), onData_(std::move(onData)) {}

  // Consumes the next piece of the stream. After a malformed header the
  // rest is ignored (malformed() tells).
  void feed(std::string_view piece);

  // True when the stream ended between frames (no partial header or frame).
  bool complete() const { return !malformed_ && headerFill_ == 0 && frameLeft_ == 0; }
  bool malformed() const { return malformed_; }

  const process::CapturedStream& out() const { return out_; }
  const process::CapturedStream& err() const { return err_; }

 private:
  void take(std::string_view bytes);

  std::size_t max_;
  OnData onData_;
  std::array<unsigned char, 8> header_{};
  std::size_t headerFill_ = 0;
  std::uint32_t frameLeft_ = 0;
  process::CapturedStream* current_ = nullptr;
  bool malformed_ = false;
  process::CapturedStream out_;
  process::CapturedStream err_;
};

}  // namespace lw::sandbox::docker
