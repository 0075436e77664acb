#include "policy/model/taskpack.h"

#include <initializer_list>

namespace lw {

std::string_view toString(LaneApi a) { return a == LaneApi::OpenAiChat ? "openai-chat" : "anthropic-messages"; }

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

namespace {

// The one of `values` whose toString is `name`.
template <typename E>
std::optional<E> named(std::string_view name, std::initializer_list<E> values) {
  for (E v : values)
    if (toString(v) == name) return v;
  return std::nullopt;
}

}  // namespace

std::optional<ReviewMode> reviewModeNamed(std::string_view name) {
  return named(name, {ReviewMode::Comment, ReviewMode::RequestChanges, ReviewMode::None});
}

std::optional<FailOn> failOnNamed(std::string_view name) {
  return named(name, {FailOn::Error, FailOn::Warning, FailOn::Never});
}

std::optional<PatchPublication> patchPublicationNamed(std::string_view name) {
  return named(name, {PatchPublication::Suggestions, PatchPublication::Branch, PatchPublication::None});
}

}  // namespace lw
