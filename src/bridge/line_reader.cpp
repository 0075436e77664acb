#include "bridge/line_reader.h"

namespace lw::bridge {

void LineReader::feed(std::string_view data, const std::function<void(std::string_view)>& onLine,
                      const std::function<void(std::size_t)>& onTooLarge) {
  while (!data.empty()) {
    std::size_t nl = data.find('\n');
    std::string_view chunk = data.substr(0, nl);
    if (discarding_) {
      if (nl == std::string_view::npos) return;
      discarding_ = false;
    } else if (buf_.size() + chunk.size() > max_) {
      onTooLarge(buf_.size() + chunk.size());
      buf_.clear();
      buf_.shrink_to_fit();
      if (nl == std::string_view::npos) {
        discarding_ = true;
        return;
      }
    } else if (nl == std::string_view::npos) {
      buf_.append(chunk);
      return;
    } else if (buf_.empty()) {
      onLine(chunk);  // the common case: no copy
    } else {
      buf_.append(chunk);
      std::string line;
      line.swap(buf_);
      onLine(line);
    }
    data.remove_prefix(nl + 1);
  }
}

}  // namespace lw::bridge
