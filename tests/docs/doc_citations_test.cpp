// What the code cites must be there for whoever reads it: users have this
// repository, not the maintainers' shared notes. Every docs/<page>.md that a
// comment or a message names exists, every tests/<file> a comment names
// exists, and no tracked file outside docs/ cites the design notes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = LOOPWRIGHT_SOURCE_DIR;

// The folders and files of the tree that hold code, scripts, workflows and
// the user-facing texts; build output and docs/ itself are not among them.
const char* const kRoots[] = {"src",  "tests",   "scripts", "dist",       "bench",     "examples",
                              "fuzz", "schemas", ".github", "action.yml", "README.md", "CMakeLists.txt"};

std::vector<fs::path> filesUnder(const std::vector<std::string>& roots) {
  std::vector<fs::path> files;
  for (const std::string& root : roots) {
    fs::path p = kSource / root;
    if (fs::is_regular_file(p)) files.push_back(p);
    if (!fs::is_directory(p)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(p))
      if (entry.is_regular_file() && entry.file_size() < (1u << 20)) files.push_back(entry.path());
  }
  return files;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A page of ours, not a path that merely ends in docs/ (a URL, a test's
// fixture such as docs/guide.md in a fake repository).
const std::regex kPageCitation(R"((?:^|[\s(`\[])(docs/[A-Za-z0-9_-]+\.md))");

// "file:line: what" for each match of `pattern` whose first group names a
// file under the source tree that is not there.
std::vector<std::string> missingTargets(const std::vector<std::string>& roots, const std::regex& pattern) {
  std::vector<std::string> missing;
  for (const fs::path& file : filesUnder(roots)) {
    std::istringstream lines(readText(file));
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n)
      for (std::sregex_iterator m(line.begin(), line.end(), pattern), end; m != end; ++m)
        if (!fs::exists(kSource / (*m)[1].str()))
          missing.push_back(fs::relative(file, kSource).string() + ":" + std::to_string(n) + ": " + (*m)[1].str());
  }
  return missing;
}

}  // namespace

TEST_CASE("doc citations: no file outside docs/ cites the design notes users do not have") {
  const std::string notes = std::string("DESIGN") + ".md";  // split, or this file would cite it
  std::vector<std::string> citing;
  std::vector<std::string> roots(std::begin(kRoots), std::end(kRoots));
  for (const fs::path& file : filesUnder(roots)) {
    std::istringstream lines(readText(file));
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n)
      if (line.find(notes) != std::string::npos)
        citing.push_back(fs::relative(file, kSource).string() + ":" + std::to_string(n));
  }
  CAPTURE(citing);
  CHECK(citing.empty());
}

TEST_CASE("doc citations: the style guidance is docs/style.md, inside the repository") {
  // CONTRIBUTING.md and .clang-format once pointed at ../shared/, which a
  // clone does not have.
  CHECK(fs::is_regular_file(kSource / "docs/style.md"));
  std::vector<std::string> citing;
  std::vector<fs::path> files = filesUnder({"docs", ".clang-format", ".clang-tidy"});
  for (const fs::path& file : files)
    if (readText(file).find("../shared/") != std::string::npos) citing.push_back(fs::relative(file, kSource).string());
  CAPTURE(citing);
  CHECK(citing.empty());
  CHECK(readText(kSource / "docs/CONTRIBUTING.md").find("[style.md](style.md)") != std::string::npos);
}

TEST_CASE("doc citations: every docs page the code, scripts and README name exists") {
  std::vector<std::string> missing =
      missingTargets({"src", "scripts", "dist", "bench", "action.yml", "README.md", "CMakeLists.txt"}, kPageCitation);
  CAPTURE(missing);
  CHECK(missing.empty());
}

TEST_CASE("doc citations: every test file a source comment names exists") {
  const std::regex test(R"((?:^|[\s(`])(tests/[A-Za-z0-9_/-]+\.(?:cpp|h|py|sh)))");
  std::vector<std::string> missing = missingTargets({"src", "scripts", "bench"}, test);
  CAPTURE(missing);
  CHECK(missing.empty());
}

TEST_CASE("doc citations: the checks find what they look for") {
  // Guards against a pattern that matches nothing: known citations are found.
  std::string line = "see docs/builtin-steps.md and (docs/verification.md), not actions/toolkit/docs/x.md";
  std::vector<std::string> found;
  for (std::sregex_iterator m(line.begin(), line.end(), kPageCitation), end; m != end; ++m)
    found.push_back((*m)[1].str());
  CHECK(found == std::vector<std::string>{"docs/builtin-steps.md", "docs/verification.md"});
  CHECK(fs::exists(kSource / "docs/architecture.md"));
}
