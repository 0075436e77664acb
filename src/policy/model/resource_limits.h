// The operating-system limits a step runs under (spec.limits and a step's
// limits: pids, memory, fileSize, openFiles, cpuSeconds, tmpSize): what
// keeps a fork bomb, a memory bomb or a disk filler from taking the host
// down. Defaults are generous enough for compilers, git and test runners,
// and bounded enough for a small runner (docs/resource-limits.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace lw {

enum class ResourceLimit { Pids, Memory, FileSize, OpenFiles, CpuSeconds, TmpSize };
inline constexpr ResourceLimit kAllResourceLimits[] = {ResourceLimit::Pids,       ResourceLimit::Memory,
                                                       ResourceLimit::FileSize,   ResourceLimit::OpenFiles,
                                                       ResourceLimit::CpuSeconds, ResourceLimit::TmpSize};

// The effective limits of one step. cpuSeconds is unset by default: the wall
// time already bounds a step, and RLIMIT_CPU counts per process, not per tree.
struct ResourceLimits {
  std::int64_t pids = 512;                             // processes and threads
  std::int64_t memoryBytes = std::int64_t{4} << 30;    // no swap on top
  std::int64_t fileSizeBytes = std::int64_t{2} << 30;  // the largest file a step may write
  std::int64_t openFiles = 4096;                       // descriptors per process
  std::optional<std::int64_t> cpuSeconds;              // per process
  std::int64_t tmpBytes = std::int64_t{1} << 30;       // the private /tmp, where there is one
  bool operator==(const ResourceLimits&) const = default;
};

// What one layer (spec.limits, a step's limits, `sandbox exec` flags) wrote.
struct ResourceLimitsOverride {
  std::optional<std::int64_t> pids;
  std::optional<std::int64_t> memoryBytes;
  std::optional<std::int64_t> fileSizeBytes;
  std::optional<std::int64_t> openFiles;
  std::optional<std::int64_t> cpuSeconds;
  std::optional<std::int64_t> tmpBytes;
  Location location;  // of the `limits:` mapping
  bool empty() const { return !pids && !memoryBytes && !fileSizeBytes && !openFiles && !cpuSeconds && !tmpBytes; }
};

// The taskpack key ("pids", "memory", "fileSize", "openFiles", "cpuSeconds", "tmpSize").
std::string_view keyOf(ResourceLimit r);
std::optional<ResourceLimit> resourceLimitOfKey(std::string_view key);
// Whether the value is a size in bytes (written "256MiB"), else a count.
bool isSize(ResourceLimit r);

struct ResourceBound {
  std::int64_t min, max;
};
ResourceBound boundOf(ResourceLimit r);

// The field of `l` / `o` that holds `r` (cpuSeconds may be unset).
std::optional<std::int64_t> valueOf(const ResourceLimits& l, ResourceLimit r);
std::optional<std::int64_t>& fieldOf(ResourceLimitsOverride& o, ResourceLimit r);
const std::optional<std::int64_t>& fieldOf(const ResourceLimitsOverride& o, ResourceLimit r);

// Strict size text: a whole number of bytes, or a whole number followed by
// KiB, MiB, GiB or TiB ("256MiB"). Decimal units (GB), bare letters (G),
// fractions and spaces are refused: `message` says why, `hint` what to write.
struct SizeProblem {
  std::string message;
  std::string hint;
};
std::optional<std::int64_t> parseSize(std::string_view text, SizeProblem* problem = nullptr);
// 268435456 -> "256MiB"; sizes that are not a whole number of KiB stay bytes.
std::string formatSize(std::int64_t bytes);
// The value as a user writes it: "256MiB" for sizes, "64" for counts, "unlimited".
std::string formatLimit(ResourceLimit r, std::optional<std::int64_t> value);

// Applies `layer` onto `out`, naming `origin` for each field it sets, keyed
// "limits.<key>" in `why`.
void applyResourceLimits(const ResourceLimitsOverride& layer, const std::string& origin, ResourceLimits& out,
                         std::map<std::string, std::string>& why);

}  // namespace lw
