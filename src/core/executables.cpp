#include "core/executables.h"

#include <system_error>

namespace lw {

std::filesystem::path runningExecutable() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self;
}

std::filesystem::path siblingExecutable(std::string_view name) {
  std::filesystem::path self = runningExecutable();
  return self.empty() ? self : self.parent_path() / name;
}

}  // namespace lw
