#include "github/markdown/code_fence.h"

#include <algorithm>

namespace lw::github {

std::string codeFenceFor(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

}  // namespace lw::github
