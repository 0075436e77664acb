#include "escape/escape_harness.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>

#include <boost/json.hpp>

#include "escape/escape_backends.h"
#include "sandbox/process/executable.h"
#include "support/host_requirement.h"

namespace lw::escape {
namespace {

namespace fs = std::filesystem;
using sandbox::process::ExecStrings;

struct Suite {
  fs::path root;    // /tmp/lw-escape-XXXXXX, 0755
  fs::path binary;  // a copy of the static hostile program, 0755
  std::optional<passwd> lwtest;
  std::string lwtestName = "lwtest";
};

// The unprivileged user the suite runs as. Created here (as root) when
// missing: scripts need nothing else.
std::optional<passwd> ensureLwtest() {
  if (::getuid() != 0) return std::nullopt;
  if (::getpwnam("lwtest") == nullptr) {
    int rc = std::system("useradd --system --no-create-home --shell /usr/sbin/nologin lwtest >/dev/null 2>&1");
    (void)rc;
  }
  passwd* p = ::getpwnam("lwtest");
  if (p == nullptr) return std::nullopt;
  return *p;
}

Suite& suite() {
  static Suite s = [] {
    Suite v;
    char t[] = "/tmp/lw-escape-XXXXXX";
    v.root = ::mkdtemp(t);
    ::chmod(v.root.c_str(), 0755);
    v.binary = v.root / "hostile";
    fs::copy_file(LW_HOSTILE_BIN, v.binary);
    ::chmod(v.binary.c_str(), 0755);
    v.lwtest = ensureLwtest();
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(suite().root, ec);
    });
    return v;
  }();
  return s;
}

// loopwright's environment: PATH, a HOME of the user's own, and the private
// Docker engine the test scripts start (DOCKER_HOST), when there is one.
std::vector<std::string> loopwrightEnv(std::optional<uid_t> uid) {
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin",
                                  "HOME=" + (suite().root / ("home-" + std::to_string(uid.value_or(0)))).string()};
  if (const char* docker = std::getenv("DOCKER_HOST")) env.push_back(std::string("DOCKER_HOST=") + docker);
  return env;
}

// `loopwright sandbox backends --json` as `uid` sees it (the observation
// negotiation uses), read once per user.
const boost::json::value& backendsReport(std::optional<uid_t> uid, gid_t gid) {
  static std::mutex mu;
  static std::map<uid_t, boost::json::value> reports;
  std::lock_guard lock(mu);
  if (auto it = reports.find(uid.value_or(0)); it != reports.end()) return it->second;
  fs::path out = suite().root / ("backends-" + std::to_string(uid.value_or(0)) + ".json");
  // Built before fork: the child only execs.
  ExecStrings argv({LOOPWRIGHT_BIN, "sandbox", "backends", "--json"});
  ExecStrings envp(loopwrightEnv(uid));
  pid_t pid = ::fork();
  if (pid == 0) {
    int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    if (uid && (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(*uid) != 0)) ::_exit(99);
    ::execve(LOOPWRIGHT_BIN, argv.get(), envp.get());
    ::_exit(127);
  }
  ::waitpid(pid, nullptr, 0);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto v = boost::json::parse(text.str(), ec);
  if (ec || !v.is_object() || !v.as_object().contains("backends"))
    v = boost::json::object{{"error", "sandbox backends --json printed no JSON: " + text.str()}};
  return reports.emplace(uid.value_or(0), std::move(v)).first->second;
}

const boost::json::object* backendEntry(const boost::json::value& report, const std::string& backend) {
  if (!report.as_object().contains("backends")) return nullptr;
  for (const auto& b : report.at("backends").as_array())
    if (b.at("backend").as_string() == backend) return &b.as_object();
  return nullptr;
}

// Whether `backend` runs here; empty when it does, else why not.
std::string unavailableReason(const std::string& backend, std::optional<uid_t> uid, gid_t gid) {
  const auto& report = backendsReport(uid, gid);
  if (report.as_object().contains("error")) return std::string(report.at("error").as_string());
  const auto* b = backendEntry(report, backend);
  if (b == nullptr) return "backend not listed by sandbox backends";
  if (b->at("available").as_bool()) return {};
  return std::string(b->at("unavailableReason").as_string());
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::vector<Runner> runners() {
  std::vector<Runner> out;
  for (std::string_view b : kEscapeBackends) {
    std::vector<Runner> users = {Runner{std::string(b), std::nullopt, 0, {}}};
    if (b == "docker") {
      // The engine's socket is root's (whoever may use it is root-equivalent),
      // so docker runs as root only, with the local test image.
      const char* image = std::getenv("LOOPWRIGHT_TEST_DOCKER_IMAGE");
      if (image == nullptr || std::getenv("DOCKER_HOST") == nullptr) {
        test::requireHost(false, "docker: no private engine and test image (scripts/docker-test-env.sh start)");
        continue;
      }
      users.front().flags = {"--image", image};
    } else if (suite().lwtest) {
      users.push_back(Runner{std::string(b), suite().lwtest->pw_uid, suite().lwtest->pw_gid, {}});
    } else {
      test::requireHost(false, "no unprivileged user lwtest (run the suite as root to create it)");
    }
    for (const Runner& r : users) {
      fs::path home = suite().root / ("home-" + std::to_string(r.uid.value_or(0)));
      fs::create_directories(home);
      if (r.uid) (void)!::chown(home.c_str(), *r.uid, r.gid);
      std::string why = unavailableReason(r.backend, r.uid, r.gid);
      if (why.empty())
        out.push_back(r);
      else
        test::requireHost(false, r.label() + " unavailable: " + why);
    }
  }
  return out;
}

bool probeEnforces(const Runner& r, Capability capability) {
  const auto* b = backendEntry(backendsReport(r.uid, r.gid), r.backend);
  if (b == nullptr || !b->at("available").as_bool()) return false;
  const auto& caps = b->at("capabilities").as_object();
  auto it = caps.find(toString(capability));
  return it != caps.end() && it->value().at("status").as_string() == "enforced";
}

bool probeEnforcesNetwork(const Runner& r, std::string_view mode) {
  const auto* b = backendEntry(backendsReport(r.uid, r.gid), r.backend);
  if (b == nullptr || !b->at("available").as_bool()) return false;
  const auto* modes = b->at("networkModes").as_object().if_contains(mode);
  return modes != nullptr && modes->at("status").as_string() == "enforced";
}

bool probeGivesL3(const Runner& r) {
  const auto* b = backendEntry(backendsReport(r.uid, r.gid), r.backend);
  if (b == nullptr || !b->at("available").as_bool()) return false;
  const auto* level = b->if_contains("isolation");
  return level != nullptr && level->is_string() && level->as_string() == "L3";
}

CaseDirs::~CaseDirs() {
  std::error_code ec;
  fs::remove_all(root, ec);
}

std::vector<NetworkedRunner> runnersWithDirect(bool requireDirect) {
  std::vector<NetworkedRunner> out;
  for (const Runner& r : runners()) out.push_back({r, "none"});
  std::vector<Runner> direct = {Runner{"direct-dedicated", std::nullopt, 0, {}}};
  if (passwd* p = ::getuid() == 0 ? ::getpwnam("lwtest") : nullptr)
    direct.push_back(Runner{"direct-dedicated", p->pw_uid, p->pw_gid, {}});
  for (const Runner& r : direct) {
    if (probeEnforces(r, Capability::ProcessTreeCleanup))
      out.push_back({r, "allow-outbound"});
    else if (requireDirect)
      test::requireHost(false, r.label() + ": processTreeCleanup not enforced here");
  }
  return out;
}

std::unique_ptr<CaseDirs> makeCase(const Runner& r) {
  static int n = 0;
  auto c = std::make_unique<CaseDirs>();
  c->root = suite().root / ("case-" + std::to_string(++n));
  c->ws = c->root / "ws";
  c->writable = c->ws / "w";
  c->outside = c->root / "outside";
  fs::create_directories(c->writable);
  fs::create_directories(c->outside);
  fs::create_hard_link(suite().binary, c->ws / "hostile");
  for (const fs::path& p : {c->root, c->ws, c->writable, c->outside}) {
    ::chmod(p.c_str(), 0755);
    if (r.uid) (void)!::chown(p.c_str(), *r.uid, r.gid);
  }
  return c;
}

ExecResult sandboxExec(const Runner& r, const CaseDirs& c, const std::vector<std::string>& attack, const ExecOptions& o,
                       pid_t* pidOut) {
  std::vector<std::string> argv = {LOOPWRIGHT_BIN,     "sandbox", "exec",        "--backend",   r.backend,
                                   "--network",        o.network, "--workspace", c.ws.string(), "--writable",
                                   c.writable.string()};
  argv.insert(argv.end(), r.flags.begin(), r.flags.end());
  argv.insert(argv.end(), o.flags.begin(), o.flags.end());
  argv.push_back("--");
  if (o.command.empty()) {
    argv.insert(argv.end(), {(c.ws / "hostile").string(), "--lw-hostile"});
    argv.insert(argv.end(), attack.begin(), attack.end());
  } else {
    argv.insert(argv.end(), o.command.begin(), o.command.end());
  }
  ExecStrings args(argv);
  std::vector<std::string> env = loopwrightEnv(r.uid);
  if (o.callerPath) env.front() = "PATH=" + *o.callerPath;  // loopwrightEnv puts PATH first
  env.insert(env.end(), o.env.begin(), o.env.end());
  ExecStrings envp(env);
  fs::path out = c.root / "stdout", err = c.root / "stderr";

  pid_t pid = ::fork();
  if (pid == 0) {
    int fo = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    if (o.inheritFd >= 0) ::fcntl(o.inheritFd, F_SETFD, 0);
    if (r.uid && (::setgroups(0, nullptr) != 0 || ::setgid(r.gid) != 0 || ::setuid(*r.uid) != 0)) ::_exit(99);
    ::execve(argv[0].c_str(), args.get(), envp.get());
    ::_exit(127);
  }
  if (o.background) {
    if (pidOut) *pidOut = pid;
    return {};
  }
  return finish(pid, c);
}

ExecResult finish(pid_t pid, const CaseDirs& c) {
  int st = 0;
  ::waitpid(pid, &st, 0);
  ExecResult res;
  res.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  res.out = readAll(c.root / "stdout");
  res.err = readAll(c.root / "stderr");
  return res;
}

}  // namespace lw::escape
