// MCP's stdio framing: messages separated by '\n', bounded in size. Bytes
// go in as they arrive; whole lines come out.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace lw::bridge {

class LineReader {
 public:
  explicit LineReader(std::size_t maxLine) : max_(maxLine) {}

  // Calls onLine for each complete line (without its '\n'). A line growing
  // past maxLine is reported once through onTooLarge with the bytes seen so
  // far, and the rest of it, up to its '\n', is dropped unread.
  void feed(std::string_view data, const std::function<void(std::string_view)>& onLine,
            const std::function<void(std::size_t)>& onTooLarge);

  // Bytes of an unterminated last line.
  const std::string& pending() const { return buf_; }

 private:
  std::size_t max_;
  std::string buf_;
  bool discarding_ = false;
};

}  // namespace lw::bridge
