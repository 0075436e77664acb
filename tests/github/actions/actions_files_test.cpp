#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "github/actions/actions_files.h"

using namespace lw;
using namespace lw::github;

namespace {

struct TmpFile {
  TmpFile() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lw-actions-XXXXXX").string();
    int fd = mkstemp(tmpl.data());
    REQUIRE(fd >= 0);
    close(fd);
    path = tmpl;
  }
  ~TmpFile() { std::filesystem::remove(path); }
  std::string read() const {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string path;
};

}  // namespace

TEST_CASE("actions files: outputs use random heredoc delimiters that are not in the value") {
  CHECK(formatOutput("a", "x\ny", "D") == "a<<D\nx\ny\nD\n");
  std::string d = heredocDelimiter({"ghadelimiter_"});
  CHECK(d.rfind("ghadelimiter_", 0) == 0);
  CHECK(d.size() > 20);
  CHECK(heredocDelimiter({}) != heredocDelimiter({}));

  TmpFile f;
  REQUIRE(appendOutputs(f.path, {{"conclusion", "failure"}, {"text", "two\nlines"}}).ok());
  std::string s = f.read();
  std::istringstream in(s);
  std::string line;
  std::getline(in, line);
  REQUIRE(line.rfind("conclusion<<ghadelimiter_", 0) == 0);
  std::string delim = line.substr(12);
  std::getline(in, line);
  CHECK(line == "failure");
  std::getline(in, line);
  CHECK(line == delim);
  std::getline(in, line);
  CHECK(line.rfind("text<<ghadelimiter_", 0) == 0);
  CHECK(line.substr(6) != delim);
  CHECK(appendOutputs(f.path, {{"bad=name", "x"}}).error().code == ErrorCode::UsageError);
  CHECK(appendOutputs("/nonexistent/dir/out", {{"a", "b"}}).error().code == ErrorCode::IoError);
}

TEST_CASE("actions files: the step summary is appended and kept within 1 MiB") {
  TmpFile f;
  REQUIRE(appendStepSummary(f.path, "# one\n").ok());
  REQUIRE(appendStepSummary(f.path, "two\n").ok());
  CHECK(f.read() == "# one\ntwo\n");
  auto big = appendStepSummary(f.path, std::string(kMaxStepSummaryBytes, 'x'));
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().code == ErrorCode::PublicationFailed);
  CHECK(f.read() == "# one\ntwo\n");
}
