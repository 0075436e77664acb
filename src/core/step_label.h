// How a step is named wherever a person reads it (logs, BLOCKERs, check runs,
// lease holders, commit messages): "<stage>/<step>".
#pragma once

#include <string>
#include <string_view>

namespace lw {

inline std::string stepLabel(std::string_view stage, std::string_view step) {
  std::string label(stage);
  label += '/';
  label += step;
  return label;
}

}  // namespace lw
