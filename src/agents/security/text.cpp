#include "agents/security/text.h"

#include <algorithm>
#include <cctype>

#include "core/hex.h"

namespace lw::agents::security {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string usesRepository(std::string_view uses) {
  uses = trim(uses);
  if (uses.starts_with("./") || uses.starts_with("$/") || uses.starts_with("docker://")) return {};
  std::string_view path = uses.substr(0, uses.find('@'));
  std::size_t owner = path.find('/');
  if (owner == std::string_view::npos) return {};
  return lowerCase(path.substr(0, path.find('/', owner + 1)));
}

std::string_view baseName(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool isFullCommitSha(std::string_view s) { return s.size() == 40 && isHex(s); }

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

}  // namespace lw::agents::security
