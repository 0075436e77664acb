#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "pipeline/review/incremental_review.h"

using namespace lw;
using namespace lw::pipeline;
namespace fs = std::filesystem;

namespace {

struct Repo {
  Repo() {
    std::string tmpl = (fs::temp_directory_path() / "lw-incremental-XXXXXX").string();
    dir = mkdtemp(tmpl.data());
    git("init -q -b main");
  }
  ~Repo() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string git(const std::string& args) const {
    std::string out = dir + "/.out";
    std::string cmd = "git -C '" + dir + "' -c user.name=t -c user.email=t@t " + args + " > '" + out + "' 2>&1";
    int rc = std::system(cmd.c_str());
    std::ifstream in(out);
    std::stringstream s;
    s << in.rdbuf();
    REQUIRE_MESSAGE(rc == 0, cmd, "\n", s.str());
    std::string text = s.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }
  std::string commit(const std::string& content) const {
    std::ofstream(dir + "/a.txt") << content;
    git("add a.txt");
    git("commit -q -m c");
    return git("rev-parse HEAD");
  }
  std::string dir;
};

}  // namespace

TEST_CASE("incremental review: only a push to an open pull request asks for the last reviewed head") {
  github::GithubEvent e;
  e.name = "pull_request";
  e.action = "synchronize";
  e.number = 7;
  e.isPullRequest = true;
  CHECK(wantsIncrementalReview(e));
  e.name = "pull_request_target";
  CHECK(wantsIncrementalReview(e));
  e.action = "opened";
  CHECK_FALSE(wantsIncrementalReview(e));
  e.action = "synchronize";
  e.name = "issue_comment";
  CHECK_FALSE(wantsIncrementalReview(e));
}

TEST_CASE("incremental review: the last reviewed head must be in the clone and below the new head") {
  Repo repo;
  std::string first = repo.commit("one\n");
  std::string second = repo.commit("one\ntwo\n");
  auto below = isAncestorCommit(repo.dir, first, second);
  REQUIRE(below.ok());
  CHECK(*below);
  CHECK(*isAncestorCommit(repo.dir, second, second));
  CHECK_FALSE(*isAncestorCommit(repo.dir, second, first));

  // A force-push: the reviewed commit is not below the new head.
  repo.git("checkout -q -b rewritten " + first + "~0");
  repo.git("reset -q --hard " + first);
  std::string rewritten = repo.commit("one\nthree\n");
  CHECK_FALSE(*isAncestorCommit(repo.dir, second, rewritten));

  auto missing = isAncestorCommit(repo.dir, std::string(40, 'e'), second);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == ErrorCode::IoError);
  CHECK_FALSE(isAncestorCommit(repo.dir, "abc", second).ok());
}
