// Fenced code blocks in what loopwright posts (suggestions, patches, a
// reproduction's output): the fence is built from the text it holds.
#pragma once

#include <string>
#include <string_view>

namespace lw::github {

// A fence of backticks longer than any backtick run in `text` (at least 3),
// so the text cannot close the block it is put in.
std::string codeFenceFor(std::string_view text);

}  // namespace lw::github
