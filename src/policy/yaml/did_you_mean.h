// Suggestions for misspelt keys and values ("did you mean 'networkMode'?").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lw {

// The closest candidate within an edit distance that a typo explains
// (at most 2, and at most a third of the word), or nullopt.
std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string_view>& candidates);

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
std::size_t editDistance(std::string_view a, std::string_view b);

}  // namespace lw
