// spawn.h's entry point in the portable build (LOOPWRIGHT_LINUX_BACKENDS=OFF):
// the POSIX launcher. The Linux build compiles spawn.cpp instead and leaves
// every *_portable.cpp out (CMakeLists.txt).
#include "sandbox/process/posix/posix_launcher.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

Result<std::unique_ptr<RunningProcess>> spawn(const SpawnRequest& request) { return posix::spawnPosix(request); }

}  // namespace lw::sandbox::process
