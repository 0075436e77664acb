// The whole content of a file, bytes as they are; empty when it cannot be
// read (the caller's assertions then say what was expected).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace lw::test {

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace lw::test
