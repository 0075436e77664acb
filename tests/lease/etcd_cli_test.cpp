// `loopwright lease ... --etcd URL` and the host config's `leases:` against
// a real etcd, through the built binary.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "etcd_server.h"

using namespace lw::lease::test;

namespace {

struct Ran {
  int status = -1;
  std::string out;  // stdout and stderr together
};

// Runs the loopwright binary with `args`, LOOPWRIGHT_HOST_CONFIG set to `hostConfig`.
Ran loopwright(std::vector<std::string> args, const std::string& hostConfig) {
  lw::test::TempDir tmp;
  std::string outFile = (tmp.root / "out").string();
  args.insert(args.begin(), LOOPWRIGHT_BIN);
  pid_t pid = ::fork();
  if (pid == 0) {
    int fd = ::open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::setenv("LOOPWRIGHT_HOST_CONFIG", hostConfig.c_str(), 1);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(LOOPWRIGHT_BIN, argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::stringstream text;
  text << std::ifstream(outFile).rdbuf();
  return Ran{WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("etcd lease cli: claim --etcd URL --prefix P wins once, is refused with exit 7, lists") {
  LW_REQUIRE_ETCD(server);
  LW_REQUIRE_HOST(::access(LOOPWRIGHT_BIN, X_OK) == 0, "the loopwright binary is not built");
  const std::string prefix = server.freshPrefix("cli");
  const std::vector<std::string> store = {"--etcd", server.endpoint(), "--prefix", prefix};
  auto with = [&](std::vector<std::string> args) {
    args.insert(args.end(), store.begin(), store.end());
    return loopwright(args, "/nonexistent/host.yaml");
  };
  Ran first = with({"lease", "claim", "wt", "--holder", "shell", "--ttl", "60"});
  CHECK(first.status == 0);
  CHECK_MESSAGE(contains(first.out, "loopwright: claimed wt (token 1) until "), first.out);
  Ran second = with({"lease", "claim", "wt", "--holder", "other", "--ttl", "60"});
  CHECK(second.status == 7);
  CHECK_MESSAGE(contains(second.out, "error[LEASE_UNAVAILABLE]: wt is held by shell (token 1)"), second.out);
  Ran list = with({"lease", "list", "--json"});
  CHECK(list.status == 0);
  CHECK_MESSAGE(contains(list.out, "\"store\":\"etcd " + server.endpoint() + " " + prefix + "\""), list.out);
  CHECK(contains(list.out, "\"holder\":\"shell\""));
  Ran released = with({"lease", "release", "wt", "--token", "1"});
  CHECK(released.status == 0);
}

TEST_CASE("etcd lease cli: the host config's leases: picks etcd, and refuses plain http off this machine") {
  LW_REQUIRE_ETCD(server);
  LW_REQUIRE_HOST(::access(LOOPWRIGHT_BIN, X_OK) == 0, "the loopwright binary is not built");
  lw::test::TempDir tmp;
  const std::string prefix = server.freshPrefix("hostcfg");
  std::string good = tmp.write("host.yaml",
                               "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                               "stateDir: " +
                                   (tmp.root / "state").string() +
                                   "\n"
                                   "leases:\n  store: etcd\n  endpoint: " +
                                   server.endpoint() + "\n  prefix: " + prefix + "\n  maxClockSkewMs: 500\n");
  Ran claimed = loopwright({"lease", "claim", "wt", "--holder", "from host config", "--ttl", "60"}, good);
  CHECK_MESSAGE(claimed.status == 0, claimed.out);
  Ran viaFlag = loopwright({"lease", "list", "--etcd", server.endpoint(), "--prefix", prefix}, "/nonexistent");
  CHECK_MESSAGE(contains(viaFlag.out, "wt  active  token 1  from host config"), viaFlag.out);

  std::string bad = tmp.write("bad.yaml",
                              "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                              "leases:\n  store: etcd\n  endpoint: http://10.0.0.1:2379\n");
  Ran refused = loopwright({"lease", "list"}, bad);
  CHECK(refused.status == 2);
  CHECK_MESSAGE(contains(refused.out, bad + ":5:13"), refused.out);
  CHECK(contains(refused.out, "plain http is allowed only to this machine, not to 10.0.0.1 (use https)"));
  Ran flag = loopwright({"lease", "list", "--etcd", "http://10.0.0.1:2379"}, "/nonexistent");
  CHECK(flag.status == 2);
  CHECK(contains(flag.out, "error[USAGE_ERROR]: --etcd 'http://10.0.0.1:2379': plain http is allowed only"));
}
