#include "policy/yaml/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace lw {

std::size_t editDistance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      // Case differences count as half a typo would: "networkmode" is surely "networkMode".
      bool same =
          std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      std::size_t cost = same ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string_view>& candidates) {
  // Long inputs are not typos of short keys; also bounds the quadratic cost.
  if (word.empty() || word.size() > 64) return std::nullopt;
  std::optional<std::string> best;
  std::size_t bestDistance = 0;
  for (std::string_view c : candidates) {
    std::size_t limit = std::min<std::size_t>(2, std::max<std::size_t>(1, c.size() / 3));
    std::size_t dist = editDistance(word, c);
    if (dist <= limit && (!best || dist < bestDistance)) {
      best = std::string(c);
      bestDistance = dist;
    }
  }
  return best;
}

}  // namespace lw
