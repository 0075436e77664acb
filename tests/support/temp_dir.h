// A scratch directory for one test, removed with everything in it at the
// end of the test.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace lw::test {

struct TempDir {
  std::filesystem::path root;
  TempDir() {
    char tmpl[] = "/tmp/lw-test-XXXXXX";
    root = ::mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes root/name (creating its directories) and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::filesystem::path p = root / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
    return p.string();
  }
};

}  // namespace lw::test
