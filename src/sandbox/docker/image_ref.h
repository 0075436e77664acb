// Container images a step may run: only references that pin the content by
// digest ("repo@sha256:<64 hex>", docs/host-config.md), or a local image ID
// ("sha256:<64 hex>", what `docker import` prints). A tag alone can be moved
// by whoever pushes to the registry, so it is refused.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace lw::sandbox::docker {

struct PinnedImage {
  std::string reference;  // what is sent to the engine, unchanged
  std::string name;       // "registry/repo[:tag]"; empty for a bare image ID
  std::string digest;     // "sha256:<64 hex>"
};

// Parses and validates `ref`. Fails with SANDBOX_LAUNCH_FAILED naming the
// problem (tag without digest, bad hex, bad repository name) and a hint.
Result<PinnedImage> parsePinnedImage(std::string_view ref);

}  // namespace lw::sandbox::docker
