// Running the loopwright binary for the host integration tests: a scratch
// directory with its own host config and state dir, and fork/exec with the
// output captured in files (so a test can also start it in the background).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

namespace lw::hosttest {

namespace fs = std::filesystem;

struct Scratch {
  fs::path root;
  Scratch() {
    char t[] = "/tmp/lw-hosttest-XXXXXX";
    root = ::mkdtemp(t);
    fs::create_directories(root / "state");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  // A host config with this floor body (YAML under `floor:`), state under root.
  fs::path hostConfig(const std::string& floorYaml) const {
    fs::path p = root / "host.yaml";
    std::ofstream(p) << "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                     << (floorYaml.empty() ? "" : "floor:\n" + floorYaml) << "stateDir: " << (root / "state").string()
                     << "\n";
    return p;
  }
};

struct Run {
  int status = -1;
  std::string out, err;
  std::int64_t ms = 0;
  std::string describe() const { return "status " + std::to_string(status) + "\nstdout: " + out + "\nstderr: " + err; }
  boost::json::object json() const {
    boost::system::error_code ec;
    auto v = boost::json::parse(out, ec);
    return !ec && v.is_object() ? v.as_object() : boost::json::object{};
  }
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The test's environment plus `extra` (an empty value removes the variable).
inline std::vector<std::string> envWith(const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : extra) {
    if (v.empty())
      env.erase(k);
    else
      env[k] = v;
  }
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

// Starts loopwright ARGS in its own process group, output to files in `dir`.
inline pid_t start(const std::vector<std::string>& args, const std::map<std::string, std::string>& extra,
                   const fs::path& dir, const std::string& tag) {
  std::vector<std::string> envs = envWith(extra);
  std::vector<std::string> argv = {LOOPWRIGHT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    int out = ::open((dir / (tag + ".out")).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open((dir / (tag + ".err")).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> a, e;
    for (auto& s : argv) a.push_back(s.data());
    for (auto& s : envs) e.push_back(s.data());
    a.push_back(nullptr);
    e.push_back(nullptr);
    ::execve(LOOPWRIGHT_BIN, a.data(), e.data());
    ::_exit(127);
  }
  return pid;
}

inline Run finish(pid_t pid, const fs::path& dir, const std::string& tag) {
  Run r;
  int st = 0;
  ::waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = slurp(dir / (tag + ".out"));
  r.err = slurp(dir / (tag + ".err"));
  return r;
}

inline Run run(const std::vector<std::string>& args, const std::map<std::string, std::string>& extra,
               const fs::path& dir) {
  auto t = std::chrono::steady_clock::now();
  Run r = finish(start(args, extra, dir, "run"), dir, "run");
  r.ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t).count();
  return r;
}

}  // namespace lw::hosttest
