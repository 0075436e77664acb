#include "policy/model/resource_limits.h"

#include <charconv>

namespace lw {
namespace {

struct Unit {
  std::string_view suffix;
  int shift;
};
constexpr Unit kUnits[] = {{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};

// What a unit that is not one of ours was probably meant to be: "GB", "G",
// "gb" and "Gi" all read as GiB (the limits are enforced in powers of 1024).
std::optional<std::string_view> meantUnit(std::string_view unit) {
  if (unit.empty()) return std::nullopt;
  char first = unit[0];
  if (first >= 'a' && first <= 'z') first = static_cast<char>(first - 'a' + 'A');
  for (const Unit& u : kUnits)
    if (u.suffix[0] == first) return u.suffix;
  return std::nullopt;
}

}  // namespace

std::string_view keyOf(ResourceLimit r) {
  switch (r) {
    case ResourceLimit::Pids: return "pids";
    case ResourceLimit::Memory: return "memory";
    case ResourceLimit::FileSize: return "fileSize";
    case ResourceLimit::OpenFiles: return "openFiles";
    case ResourceLimit::CpuSeconds: return "cpuSeconds";
    case ResourceLimit::TmpSize: return "tmpSize";
  }
  return "?";
}

std::optional<ResourceLimit> resourceLimitOfKey(std::string_view key) {
  for (ResourceLimit r : kAllResourceLimits)
    if (keyOf(r) == key) return r;
  return std::nullopt;
}

bool isSize(ResourceLimit r) {
  return r == ResourceLimit::Memory || r == ResourceLimit::FileSize || r == ResourceLimit::TmpSize;
}

// Lower bounds: below them a shell pipeline, a dynamic linker or git cannot
// start, which is a typo rather than a policy. Upper bounds catch an extra
// zero group.
ResourceBound boundOf(ResourceLimit r) {
  constexpr std::int64_t MiB = std::int64_t{1} << 20;
  constexpr std::int64_t TiB = std::int64_t{1} << 40;
  switch (r) {
    case ResourceLimit::Pids: return {8, 65536};
    case ResourceLimit::Memory: return {16 * MiB, TiB};
    case ResourceLimit::FileSize: return {MiB, TiB};
    case ResourceLimit::OpenFiles: return {32, 1 << 20};
    case ResourceLimit::CpuSeconds: return {1, 7 * 86400};
    case ResourceLimit::TmpSize: return {MiB, 64 * (std::int64_t{1} << 30)};
  }
  return {0, 0};
}

std::optional<std::int64_t> valueOf(const ResourceLimits& l, ResourceLimit r) {
  switch (r) {
    case ResourceLimit::Pids: return l.pids;
    case ResourceLimit::Memory: return l.memoryBytes;
    case ResourceLimit::FileSize: return l.fileSizeBytes;
    case ResourceLimit::OpenFiles: return l.openFiles;
    case ResourceLimit::CpuSeconds: return l.cpuSeconds;
    case ResourceLimit::TmpSize: return l.tmpBytes;
  }
  return std::nullopt;
}

std::optional<std::int64_t>& fieldOf(ResourceLimitsOverride& o, ResourceLimit r) {
  switch (r) {
    case ResourceLimit::Pids: return o.pids;
    case ResourceLimit::Memory: return o.memoryBytes;
    case ResourceLimit::FileSize: return o.fileSizeBytes;
    case ResourceLimit::OpenFiles: return o.openFiles;
    case ResourceLimit::CpuSeconds: return o.cpuSeconds;
    case ResourceLimit::TmpSize: return o.tmpBytes;
  }
  return o.pids;
}

const std::optional<std::int64_t>& fieldOf(const ResourceLimitsOverride& o, ResourceLimit r) {
  return fieldOf(const_cast<ResourceLimitsOverride&>(o), r);
}

std::optional<std::int64_t> parseSize(std::string_view text, SizeProblem* problem) {
  const std::string_view hint = "write a whole number of bytes, KiB, MiB, GiB or TiB (powers of 1024), e.g. 256MiB";
  auto fail = [&](std::string message, std::string h) -> std::optional<std::int64_t> {
    if (problem) *problem = {std::move(message), std::move(h)};
    return std::nullopt;
  };
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return fail("is not a size", std::string(hint));
  std::string_view unit = text.substr(digits);
  int shift = -1;
  if (unit.empty()) shift = 0;
  for (const Unit& u : kUnits)
    if (unit == u.suffix) shift = u.shift;
  if (shift < 0) {
    auto meant = meantUnit(unit);
    if (meant && unit.find_first_of(" .,") == std::string_view::npos)
      return fail("is not a size: '" + std::string(unit) + "' is not a unit",
                  "did you mean '" + std::string(text.substr(0, digits)) + std::string(*meant) +
                      "'? Sizes are powers of 1024 (KiB, MiB, GiB, TiB)");
    return fail("is not a size", std::string(hint));
  }
  std::int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + digits, n);
  if (ec != std::errc() || ptr != text.data() + digits || n > (INT64_MAX >> shift))
    return fail("is too large", std::string(hint));
  return n << shift;
}

std::string formatSize(std::int64_t bytes) {
  for (auto it = std::rbegin(kUnits); it != std::rend(kUnits); ++it) {
    std::int64_t unit = std::int64_t{1} << it->shift;
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + std::string(it->suffix);
  }
  return std::to_string(bytes);
}

std::string formatLimit(ResourceLimit r, std::optional<std::int64_t> value) {
  if (!value) return "unlimited";
  return isSize(r) ? formatSize(*value) : std::to_string(*value);
}

void applyResourceLimits(const ResourceLimitsOverride& layer, const std::string& origin, ResourceLimits& out,
                         std::map<std::string, std::string>& why) {
  for (ResourceLimit r : kAllResourceLimits) {
    const auto& v = fieldOf(layer, r);
    if (!v) continue;
    switch (r) {
      case ResourceLimit::Pids: out.pids = *v; break;
      case ResourceLimit::Memory: out.memoryBytes = *v; break;
      case ResourceLimit::FileSize: out.fileSizeBytes = *v; break;
      case ResourceLimit::OpenFiles: out.openFiles = *v; break;
      case ResourceLimit::CpuSeconds: out.cpuSeconds = *v; break;
      case ResourceLimit::TmpSize: out.tmpBytes = *v; break;
    }
    why["limits." + std::string(keyOf(r))] = origin;
  }
}

}  // namespace lw
