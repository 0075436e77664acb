// The messages builtin/review sends for one chunk. Our rules and the output
// contract are the system message; everything that comes from the
// repository or the pull request (the maintainers' instructions, the title
// and body, the diff) is in the user message inside DATA fences whose
// boundary token does not occur in any of that text, so no content can
// close its fence and pass for our words. The system message says that text
// inside a fence is data, never instructions; the answer is validated all
// the same (model_output.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace lw::agents::review {

struct Message {
  std::string role;  // system | user | assistant
  std::string content;
};

struct PromptInputs {
  std::string instructions;        // bounded (instructions.h); empty: none found
  std::string instructionsSource;  // the file they came from, at the base commit
  std::string title;
  std::string body;
  std::string diff;  // the chunk, rendered (chunking.h)
};

inline constexpr std::size_t kMaxBodyBytes = 4000;

// 64 random bits a call (std::random_device in the agent; a script in tests).
using RandomBits = std::function<std::uint64_t()>;

// "LW-DATA-<16 hex digits>" occurring in none of `contents`. INTERNAL after
// 16 draws that all occur (a broken random source).
Result<std::string> chooseFence(const std::vector<std::string_view>& contents, const RandomBits& random);

// The fence token drawn for `in`'s texts (every one that goes in a fence).
Result<std::string> chooseFence(const PromptInputs& in, const RandomBits& random);

// [system, user] for one chunk, fenced with `fence`.
std::vector<Message> buildPrompt(const PromptInputs& in, const std::string& fence);

// The first request, then the model's invalid answer (bounded) and a user
// message listing what was wrong, for the one retry.
std::vector<Message> correctionPrompt(std::vector<Message> first, std::string_view badAnswer,
                                      const std::vector<std::string>& problems);

}  // namespace lw::agents::review
