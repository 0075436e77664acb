// Mount points a launcher (bubblewrap, the Docker engine) creates on the host
// to mask protected paths that do not exist yet: removed once the step is
// over, and only while they are still empty directories.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

// `inner`, removing `placeholders` after wait() or kill() returns, or when
// it is dropped (the inner process is gone first in every case).
std::unique_ptr<RunningProcess> removingPlaceholdersAfter(std::unique_ptr<RunningProcess> inner,
                                                          std::vector<std::filesystem::path> placeholders);

}  // namespace lw::sandbox::process
