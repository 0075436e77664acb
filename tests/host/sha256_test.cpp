#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "host/sha256.h"

using namespace lw::host;

TEST_CASE("sha256: a digest fed in pieces equals the one-shot digest, and a file's equals its content's") {
  const std::string text(200000, 'q');
  Sha256 pieces;
  for (std::size_t i = 0; i < text.size(); i += 777) pieces.update(std::string_view(text).substr(i, 777));
  const std::string digest = pieces.hexDigest();
  CHECK(digest == sha256Hex(text));
  CHECK(digest.size() == 64);
  CHECK(digest != sha256Hex(text + "q"));

  const auto path = std::filesystem::temp_directory_path() / "lw-sha256-test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  CHECK(sha256File(path.string()) == digest);
  std::filesystem::remove(path);
  CHECK_FALSE(sha256File(path.string()).has_value());
}
