#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "sandbox/process/posix/tree_mark.h"

using namespace lw::sandbox::process::posix;
using namespace std::string_literals;

namespace {

// A KERN_PROCARGS2 answer as XNU lays it out: argc, the executable's path,
// NUL padding, the arguments, the environment, an empty string, then the
// strings XNU passes to dyld ("apple" strings).
std::string procArgs(int argc, const std::string& strings) {
  std::string out(sizeof argc, '\0');
  std::memcpy(out.data(), &argc, sizeof argc);
  return out + strings;
}

}  // namespace

TEST_CASE("posix tree mark: a step's mark is its launcher's chain with its own token last") {
  CHECK(chainedTreeMark(std::nullopt, "t1") == "t1");
  CHECK(chainedTreeMark(""s, "t1") == "t1");
  CHECK(chainedTreeMark("a:b"s, "t1") == "a:b:t1");
  CHECK(chainedTreeMark("a::b:"s, "t1") == "a:b:t1");
  // Nesting cannot grow it without bound: the outermost tokens go first.
  CHECK(chainedTreeMark("1:2:3:4:5:6:7:8:9"s, "t1") == "3:4:5:6:7:8:9:t1");
}

TEST_CASE("posix tree mark: a new token is 16 hex digits, another each time") {
  const std::string a = newTreeToken();
  CHECK(a.size() == 16);
  CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(newTreeToken() != a);
}

TEST_CASE("posix tree mark: an environment carries the token only in a LOOPWRIGHT_TREE entry, as a whole token") {
  CHECK(environCarriesToken("PATH=/bin\0LOOPWRIGHT_TREE=outer:t1\0HOME=/h\0"s, "t1"));
  CHECK(environCarriesToken("LOOPWRIGHT_TREE=t1:inner"s, "t1"));
  CHECK_FALSE(environCarriesToken("LOOPWRIGHT_TREE=t10\0"s, "t1"));
  CHECK_FALSE(environCarriesToken("LOOPWRIGHT_TREES=t1\0"s, "t1"));
  CHECK_FALSE(environCarriesToken("XLOOPWRIGHT_TREE=t1\0"s, "t1"));
  CHECK_FALSE(environCarriesToken("OTHER=LOOPWRIGHT_TREE=t1\0"s, "t1"));
  CHECK_FALSE(environCarriesToken(""s, "t1"));
  // An empty entry (execve allows one) hides nothing after it.
  CHECK(environCarriesToken("PATH=/bin\0\0LOOPWRIGHT_TREE=t1\0"s, "t1"));
}

TEST_CASE("posix tree mark: the environment of a KERN_PROCARGS2 answer ends before dyld's strings") {
  const std::string answer = procArgs(2,
                                      "/bin/daemon\0\0\0\0\0"s
                                      "daemon\0-f\0"s
                                      "PATH=/bin\0LOOPWRIGHT_TREE=t1\0\0"s
                                      "executable_path=/bin/daemon\0LOOPWRIGHT_TREE=t2\0"s);
  const auto env = environOfProcArgs(answer);
  REQUIRE(env);
  CHECK(*env == "PATH=/bin\0LOOPWRIGHT_TREE=t1\0"s);
  CHECK(environCarriesToken(*env, "t1"));
  CHECK_FALSE(environCarriesToken(*env, "t2"));
  // An argument that looks like the mark is not the environment.
  const std::string inArgs = procArgs(1, "/bin/x\0LOOPWRIGHT_TREE=t1\0PATH=/bin\0"s);
  REQUIRE(environOfProcArgs(inArgs));
  CHECK_FALSE(environCarriesToken(*environOfProcArgs(inArgs), "t1"));
}

TEST_CASE("posix tree mark: a KERN_PROCARGS2 answer without its environment or of another shape") {
  // XNU leaves the environment of a restricted process out: argv ends it.
  const auto omitted = environOfProcArgs(procArgs(1, "/bin/x\0\0\0x\0"s));
  REQUIRE(omitted);
  CHECK(omitted->empty());
  CHECK_FALSE(environOfProcArgs("ab"s));
  CHECK_FALSE(environOfProcArgs(procArgs(-1, "/bin/x\0"s)));
  CHECK_FALSE(environOfProcArgs(procArgs(3, "/bin/x\0\0x\0"s)));
  CHECK_FALSE(environOfProcArgs(procArgs(1, "/bin/x"s)));
}
