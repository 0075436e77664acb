#include "support/host_requirement.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <doctest/doctest.h>

namespace lw::test {

bool requireHost(bool available, const std::string& reason) {
  if (available) return true;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::strcmp(ci, "true") == 0) {
    FAIL("required on the CI machine but missing: " << reason);
    return false;
  }
  std::cout << "[SKIPPED] " << reason << std::endl;
  return false;
}

}  // namespace lw::test
