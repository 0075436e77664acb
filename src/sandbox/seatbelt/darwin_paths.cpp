#include "sandbox/seatbelt/darwin_paths.h"

#include <array>
#include <string_view>

namespace lw::sandbox::seatbelt {

namespace fs = std::filesystem;

fs::path privateSpelling(const fs::path& p) {
  fs::path n = p.lexically_normal();
  if (!n.is_absolute()) return n;
  auto it = n.begin();
  ++it;  // past the root
  if (it == n.end()) return n;
  static constexpr std::array<std::string_view, 3> kLinked = {"var", "tmp", "etc"};
  for (std::string_view top : kLinked)
    if (it->native() == top) return fs::path("/private") / n.relative_path();
  return n;
}

bool sameDarwinPath(const fs::path& a, const fs::path& b) {
  fs::path x = privateSpelling(a), y = privateSpelling(b);
  // A trailing separator does not make another place.
  if (!x.has_filename()) x = x.parent_path();
  if (!y.has_filename()) y = y.parent_path();
  return x == y;
}

bool isWithinDarwinPath(const fs::path& inner, const fs::path& outer) {
  const fs::path rel = privateSpelling(inner).lexically_relative(privateSpelling(outer));
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace lw::sandbox::seatbelt
