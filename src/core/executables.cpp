#include "core/executables.h"

#include <system_error>

#if defined(__APPLE__)
#include <mach-o/dyld.h>

#include <climits>
#include <cstdint>
#endif

namespace lw {

std::filesystem::path runningExecutable() {
#if defined(__APPLE__)
  // No /proc on macOS: dyld knows the path it loaded the executable from.
  char path[PATH_MAX];
  std::uint32_t size = sizeof path;
  if (_NSGetExecutablePath(path, &size) != 0) return {};
  std::error_code ec;
  auto real = std::filesystem::canonical(path, ec);
  return ec ? std::filesystem::path() : real;
#else
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self;
#endif
}

std::filesystem::path siblingExecutable(std::string_view name) {
  std::filesystem::path self = runningExecutable();
  return self.empty() ? self : self.parent_path() / name;
}

}  // namespace lw
