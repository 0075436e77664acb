// A conservative token count for text sent to a model: one token per three
// bytes, rounded up. Tokenizers of the models lanes use average about four
// bytes per token on English and code, so this over-counts; a budget checked
// with it is reached a little early, never overrun by the estimate.
#pragma once

#include <cstdint>
#include <string_view>

namespace lw::agents::review {

inline constexpr std::int64_t kBytesPerToken = 3;

inline std::int64_t estimateTokens(std::string_view text) {
  return (static_cast<std::int64_t>(text.size()) + kBytesPerToken - 1) / kBytesPerToken;
}

}  // namespace lw::agents::review
