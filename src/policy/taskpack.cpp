#include "policy/taskpack.h"

namespace lw {

std::string_view toString(LaneApi a) {
  return a == LaneApi::OpenAiChat ? "openai-chat" : "anthropic-messages";
}

std::string_view toString(ReviewMode m) {
  switch (m) {
    case ReviewMode::None: return "none";
    case ReviewMode::Comment: return "comment";
    case ReviewMode::RequestChanges: return "request-changes";
  }
  return "comment";
}

std::string_view toString(FailOn f) {
  switch (f) {
    case FailOn::Error: return "error";
    case FailOn::Warning: return "warning";
    case FailOn::Never: return "never";
  }
  return "error";
}

std::string_view toString(PatchPublication p) {
  switch (p) {
    case PatchPublication::Suggestions: return "suggestions";
    case PatchPublication::Branch: return "branch";
    case PatchPublication::None: return "none";
  }
  return "suggestions";
}

}  // namespace lw
