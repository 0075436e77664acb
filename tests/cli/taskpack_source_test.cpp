#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli/taskpack_source.h"
#include "policy/model/taskpack.h"
#include "support/temp_dir.h"

using namespace lw;

namespace {

// One commit made with the git CLI: the taskpack, a directory where a file
// is asked for, and a file over the taskpack's size limit.
struct BaseCommit {
  test::TempDir tmp;
  std::string dir = tmp.root.string();
  std::string sha;

  BaseCommit() {
    tmp.write(".loopwright/taskpack.yaml", "apiVersion: loopwright.dev/v1alpha1\n");
    tmp.write("big.yaml", std::string(kTaskpackMaxBytes + 1, 'x'));
    tmp.write("dir/file", "x\n");
    std::string cmd = "cd '" + dir +
                      "' && (git init -q -b main . && git config user.email t@e && git config user.name t && "
                      "git add . && git commit -qm base && git rev-parse HEAD > .rev) >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream(dir + "/.rev") >> sha;
  }
};

}  // namespace

TEST_CASE("taskpack source: the taskpack of a pull request is read from its base commit") {
  BaseCommit base;
  auto read = cli::readTaskpackAtCommit(base.dir, base.sha, ".loopwright/taskpack.yaml");
  REQUIRE(read.ok());
  CHECK(read->text == "apiVersion: loopwright.dev/v1alpha1\n");
  CHECK(read->source == base.sha + ":.loopwright/taskpack.yaml");
}

TEST_CASE("taskpack source: what the base commit lacks is refused with the way to fix it") {
  BaseCommit base;
  auto refused = [&](const std::string& sha, const std::string& path) {
    auto r = cli::readTaskpackAtCommit(base.dir, sha, path);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::TaskpackInvalid);
    return r.error();
  };
  CHECK(refused("abc", "t.yaml").message == "'abc' is not a commit id");
  const std::string absent(40, '1');
  Error notFetched = refused(absent, "t.yaml");
  CHECK(notFetched.message == "the base commit " + absent + " is not in " + base.dir);
  CHECK(notFetched.hint.find("fetch-depth: 0") != std::string::npos);
  Error missing = refused(base.sha, "none.yaml");
  CHECK(missing.message == "the base commit " + base.sha + " has no none.yaml");
  CHECK(missing.hint.find("a pull request cannot bring its own") != std::string::npos);
  CHECK(refused(base.sha, "dir").message == base.sha + ":dir is not a file");
  CHECK(refused(base.sha, "big.yaml").message == base.sha + ":big.yaml is " + std::to_string(kTaskpackMaxBytes + 1) +
                                                     " bytes; the limit is " + std::to_string(kTaskpackMaxBytes));
}
