#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sandbox/process/capture.h"

using lw::sandbox::process::BoundedCapture;

TEST_CASE("process capture: keeps at most the limit and counts everything") {
  std::vector<std::pair<int, std::string>> seen;
  BoundedCapture cap(5, 2, [&](int s, const char* d, std::size_t n) { seen.emplace_back(s, std::string(d, n)); });
  cap.append("abc", 3);
  cap.append("defgh", 5);
  CHECK(cap.stream().data == "abcde");
  CHECK(cap.stream().totalBytes == 8);
  CHECK(cap.stream().truncated());
  REQUIRE(seen.size() == 2);
  CHECK(seen[1] == std::pair<int, std::string>{2, "defgh"});
}

TEST_CASE("process capture: a zero limit keeps nothing but still counts") {
  BoundedCapture cap(0, 1, nullptr);
  cap.append("xyz", 3);
  CHECK(cap.stream().data.empty());
  CHECK(cap.stream().totalBytes == 3);
}
