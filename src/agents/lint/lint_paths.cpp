#include "agents/lint/lint_paths.h"

#include <cctype>

#include "core/hex.h"

namespace lw::agents::lint {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> percentDecoded(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hexDigitValue(s[i + 1]);
    int lo = hexDigitValue(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

// RFC 3986: a scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) then ':'.
std::size_t schemeLength(std::string_view uri) {
  std::size_t i = 0;
  while (i < uri.size() &&
         (std::isalnum(static_cast<unsigned char>(uri[i])) || uri[i] == '+' || uri[i] == '-' || uri[i] == '.')) {
    ++i;
  }
  bool scheme = i > 1 && i < uri.size() && uri[i] == ':' && std::isalpha(static_cast<unsigned char>(uri[0]));
  return scheme ? i : 0;
}

std::optional<std::string> relativeTo(const fs::path& path, const fs::path& root) {
  fs::path base = root.lexically_normal();
  if (!base.has_filename() && base.has_parent_path() && base != base.root_path()) base = base.parent_path();
  fs::path rel = path.lexically_relative(base);
  if (rel.empty()) return std::nullopt;
  std::string s = rel.generic_string();
  if (s == "." || s == ".." || s.rfind("../", 0) == 0) return std::nullopt;
  return s;
}

}  // namespace

std::optional<std::string> uriToPath(std::string_view uri) {
  std::size_t scheme = schemeLength(uri);
  if (scheme == 0) return percentDecoded(uri);
  std::string name(uri.substr(0, scheme));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name != "file") return std::nullopt;
  std::string_view rest = uri.substr(scheme + 1);
  if (rest.rfind("//", 0) == 0) {
    rest.remove_prefix(2);
    std::size_t slash = rest.find('/');
    std::string_view host = rest.substr(0, slash);
    if (!host.empty() && host != "localhost") return std::nullopt;
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  return percentDecoded(rest);
}

std::optional<std::string> repositoryPath(std::string_view path, const std::vector<fs::path>& roots) {
  if (path.empty()) return std::string();
  fs::path p = fs::path(std::string(path)).lexically_normal();
  if (p.is_relative()) {
    if (roots.empty()) return std::nullopt;
    p = (roots.front() / p).lexically_normal();
  }
  for (const fs::path& root : roots) {
    if (auto rel = relativeTo(p, root)) return rel;
  }
  return std::nullopt;
}

}  // namespace lw::agents::lint
