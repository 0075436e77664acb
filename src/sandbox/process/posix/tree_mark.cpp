#include "sandbox/process/posix/tree_mark.h"

#include <cstring>
#include <vector>

#include "core/hex.h"

namespace lw::sandbox::process::posix {
namespace {

constexpr std::size_t kChainedTokens = 8;

// Calls `f` with each NUL-terminated string of `block` until it returns true.
template <typename F>
bool anyEntry(std::string_view block, F f) {
  std::size_t at = 0;
  while (at < block.size()) {
    std::size_t end = block.find('\0', at);
    if (end == std::string_view::npos) end = block.size();
    if (f(block.substr(at, end - at))) return true;
    at = end + 1;
  }
  return false;
}

std::vector<std::string_view> tokensOf(std::string_view chain) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at <= chain.size()) {
    std::size_t end = chain.find(':', at);
    if (end == std::string_view::npos) end = chain.size();
    if (end > at) out.push_back(chain.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

std::string newTreeToken() { return randomHex(16); }

std::string chainedTreeMark(std::optional<std::string_view> inherited, std::string_view token) {
  std::vector<std::string_view> chain = inherited ? tokensOf(*inherited) : std::vector<std::string_view>{};
  if (chain.size() >= kChainedTokens) chain.erase(chain.begin(), chain.end() - (kChainedTokens - 1));
  std::string out;
  for (std::string_view t : chain) out.append(t).append(":");
  return out.append(token);
}

bool environCarriesToken(std::string_view block, std::string_view token) {
  const std::string prefix = std::string(kTreeMarkVariable) + "=";
  return anyEntry(block, [&](std::string_view entry) {
    if (entry.substr(0, prefix.size()) != prefix) return false;
    for (std::string_view t : tokensOf(entry.substr(prefix.size())))
      if (t == token) return true;
    return false;
  });
}

std::optional<std::string_view> environOfProcArgs(std::string_view procargs) {
  int argc = 0;
  if (procargs.size() < sizeof argc) return std::nullopt;
  std::memcpy(&argc, procargs.data(), sizeof argc);
  if (argc < 0) return std::nullopt;
  // The executable's path, then the NULs that align what follows.
  std::size_t at = procargs.find('\0', sizeof argc);
  if (at == std::string_view::npos) return std::nullopt;
  at = procargs.find_first_not_of('\0', at);
  for (int i = 0; i < argc; ++i) {
    if (at == std::string_view::npos || at >= procargs.size()) return std::nullopt;
    at = procargs.find('\0', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  if (at == std::string_view::npos || at >= procargs.size()) return std::string_view{};
  // An empty string, where there is one, ends the environment; XNU's own
  // strings for dyld (executable_path=…) may follow, none a LOOPWRIGHT_TREE.
  const std::size_t end = procargs.find(std::string_view("\0\0", 2), at);
  if (procargs[at] == '\0') return std::string_view{};
  return procargs.substr(at, end == std::string_view::npos ? std::string_view::npos : end + 1 - at);
}

}  // namespace lw::sandbox::process::posix
