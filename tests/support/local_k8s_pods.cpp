#include "support/local_k8s_pods.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <thread>

#include <boost/json/serialize.hpp>

namespace lw::test {

namespace json = boost::json;
namespace fs = std::filesystem;

// Named, not anonymous: LocalPodRuntime::Pod holds them.
namespace local_pods {
// What a container is, run as local processes.
struct Container {
  std::string name;
  std::string image;
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  std::vector<std::pair<std::string, fs::path>> mounts;  // mount path -> the volume's directory, longest first
  std::string workingDir;
  int pid = -1;
  std::string startedAt;
  std::optional<int> exitCode;
  std::string finishedAt;
};

}  // namespace local_pods

namespace {

using local_pods::Container;

std::string now() {
  std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

// A path inside the container -> the directory that stands for it.
std::string mapped(const Container& c, const std::string& value) {
  for (const auto& [mountPath, dir] : c.mounts)
    if (value == mountPath || value.starts_with(mountPath + "/")) return dir.string() + value.substr(mountPath.size());
  return value;
}

Container containerOf(const json::object& c, const fs::path& volumes) {
  Container out;
  out.name = std::string(c.at("name").as_string());
  out.image = std::string(c.at("image").as_string());
  if (const json::value* command = c.if_contains("command"))
    for (const json::value& a : command->as_array()) out.command.emplace_back(a.as_string());
  if (const json::value* mounts = c.if_contains("volumeMounts"))
    for (const json::value& m : mounts->as_array())
      out.mounts.emplace_back(std::string(m.at("mountPath").as_string()),
                              volumes / std::string(m.at("name").as_string()));
  std::sort(out.mounts.begin(), out.mounts.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  out.env["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  if (const json::value* env = c.if_contains("env"))
    for (const json::value& e : env->as_array())
      out.env[std::string(e.at("name").as_string())] = mapped(out, std::string(e.at("value").as_string()));
  const json::value* wd = c.if_contains("workingDir");
  out.workingDir = wd != nullptr ? mapped(out, std::string(wd->as_string())) : volumes.string();
  return out;
}

struct Child {
  int pid = -1;
  int in = -1;  // -1 when not piped
  int out = -1;
  int err = -1;
};

// pipe2 is Linux's; the portable build's tests run this server too.
bool cloexecPipe(int fds[2]) {
  if (::pipe(fds) != 0) return false;
  return ::fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0 && ::fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0;
}

std::string onPath(std::string program) {
  for (const char* dir : {"/usr/local/bin/", "/usr/bin/", "/bin/"})
    if (program.find('/') == std::string::npos && ::access((dir + program).c_str(), X_OK) == 0) return dir + program;
  return program;
}

// The network namespace every process of a pod shares, as a node's pod
// sandbox holds it: a process that only waits in a user and network
// namespace of its own (-1 when it could not be made). Returned only once
// it is in its namespace: a process joining it sooner would join the host's.
int networkHolder() {
  // Its loopback up, as a pod's is (unshare leaves it down).
  const std::vector<std::string> argv{onPath("unshare"),
                                      "-U",
                                      "-r",
                                      "-n",
                                      "--",
                                      onPath("sh"),
                                      "-c",
                                      "PATH=/usr/sbin:/sbin:$PATH ip link set lo up && exec sleep infinity"};
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  if (pid < 0) return -1;
  const auto own = fs::read_symlink("/proc/self/ns/net");
  for (int i = 0; i < 500; ++i) {
    std::error_code ec;
    const auto held = fs::read_symlink("/proc/" + std::to_string(pid) + "/ns/net", ec);
    if (!ec && held != own && fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec).filename() == "sleep")
      return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
  return -1;
}

// The argv the pod's processes start under ("" none), as its sandbox asks:
// the pod's network namespace (`holder`), then bubblewrap for its /proc/version.
std::vector<std::string> sandboxWrapper(const PodSandbox& sandbox, const fs::path& podDir, int holder) {
  std::vector<std::string> w;
  if (sandbox.ownNetwork)
    w = {onPath("nsenter"), "-t", std::to_string(holder), "-U", "-n", "--preserve-credentials", "--"};
  if (sandbox.procVersion.empty()) return w;
  // No --die-with-parent: the parent is the server thread that created the pod, which ends
  // before the pod does; the runtime kills the process group instead.
  fs::create_directories(podDir);
  std::ofstream(podDir / "proc-version") << sandbox.procVersion << "\n";
  w.insert(w.end(), {onPath("bwrap"), "--dev-bind", "/", "/", "--ro-bind", (podDir / "proc-version").string(),
                     "/proc/version", "--"});
  return w;
}

// Starts argv (argv[0] found on the container's PATH) in its own process
// group, stdio piped or /dev/null, under `wrapper` when there is one.
Child spawnLocal(const Container& c, const std::vector<std::string>& argv, bool piped,
                 const std::vector<std::string>& wrapper) {
  std::vector<std::string> envText;
  for (const auto& [k, v] : c.env) envText.push_back(k + "=" + v);
  std::vector<char*> args, envp;
  std::vector<std::string> mappedArgs = wrapper;
  for (const std::string& a : argv) mappedArgs.push_back(mapped(c, a));
  if (mappedArgs.size() > wrapper.size()) mappedArgs[wrapper.size()] = onPath(mappedArgs[wrapper.size()]);
  for (std::string& a : mappedArgs) args.push_back(a.data());
  args.push_back(nullptr);
  for (std::string& e : envText) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string program = mappedArgs.empty() ? "" : mappedArgs[0];
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (piped && (!cloexecPipe(in) || !cloexecPipe(out) || !cloexecPipe(err))) return {};
  const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(piped ? in[0] : null, 0);
    ::dup2(piped ? out[1] : null, 1);
    ::dup2(piped ? err[1] : null, 2);
    if (::chdir(c.workingDir.c_str()) != 0) ::_exit(126);
    ::execve(program.c_str(), args.data(), envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // before any kill(-pid), whichever of the two runs first
  ::close(null);
  if (!piped) return Child{pid};
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  return Child{pid, in[1], out[0], err[0]};
}

int exitCodeOf(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

json::object containerStatus(const Container& c) {
  json::object state;
  if (c.exitCode)
    state["terminated"] = json::object{{"exitCode", *c.exitCode},
                                       {"reason", *c.exitCode == 0 ? "Completed" : "Error"},
                                       {"startedAt", c.startedAt},
                                       {"finishedAt", c.finishedAt}};
  else if (c.pid > 0)
    state["running"] = json::object{{"startedAt", c.startedAt}};
  else
    state["waiting"] = json::object{{"reason", "ContainerCreating"}};
  return json::object{{"name", c.name},    {"image", c.image},
                      {"imageID", ""},     {"ready", c.pid > 0 && !c.exitCode},
                      {"restartCount", 0}, {"started", c.pid > 0 && !c.exitCode},
                      {"state", state}};
}

// The exec outcome on channel 3, as the kubelet reports it.
std::string execStatus(const std::vector<std::string>& command, int code) {
  if (code == 0) return json::serialize(json::object{{"metadata", json::object{}}, {"status", "Success"}});
  std::string joined;
  for (const std::string& a : command) joined += (joined.empty() ? "" : " ") + a;
  return json::serialize(json::object{
      {"metadata", json::object{}},
      {"status", "Failure"},
      {"message", "command terminated with non-zero exit code: error executing command [" + joined + "], exit code " +
                      std::to_string(code)},
      {"reason", "NonZeroExitCode"},
      {"details", json::object{{"causes", json::array{json::object{{"reason", "ExitCode"},
                                                                   {"message", std::to_string(code)}}}}}}});
}

// Copies the child's stdout and stderr to channels 1 and 2 until both end.
void forwardOutput(const Child& child, LocalHttpServer::WebSocket& ws) {
  pollfd fds[2] = {{child.out, POLLIN, 0}, {child.err, POLLIN, 0}};
  int open = 2;
  char buffer[16384];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
        continue;
      }
      ws.write(std::string(1, static_cast<char>(i + 1)) + std::string(buffer, static_cast<std::size_t>(n)));
    }
  }
}

}  // namespace

bool nodeSandboxInstalled() {
  return onPath("bwrap") != "bwrap" && onPath("unshare") != "unshare" && onPath("nsenter") != "nsenter";
}

struct LocalPodRuntime::Pod {
  std::vector<Container> containers;
  std::vector<std::string> wrapper;  // the sandbox's argv, for the containers and every exec
  int networkHolder = -1;            // the process holding the pod's network namespace
  std::set<int> execPids;
  std::string startTime;
};

LocalPodRuntime::LocalPodRuntime(fs::path root, StatusSink sink) : root_(std::move(root)), sink_(std::move(sink)) {
  ::signal(SIGPIPE, SIG_IGN);  // a command that stops reading its stdin ends the feeder's write, not the test
}

LocalPodRuntime::~LocalPodRuntime() {
  std::vector<std::string> keys;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, pod] : pods_) keys.push_back(key);
  }
  for (const std::string& key : keys) stop(key);
  for (std::thread& t : waiters_) t.join();
}

void LocalPodRuntime::start(const std::string& key, const json::object& pod, const PodSandbox& sandbox) {
  auto p = std::make_shared<Pod>();
  const fs::path podDir = root_ / std::string(pod.at("metadata").at("name").as_string());
  const fs::path volumes = podDir / "volumes";
  if (const json::value* vs = pod.at("spec").as_object().if_contains("volumes"))
    for (const json::value& v : vs->as_array()) fs::create_directories(volumes / std::string(v.at("name").as_string()));
  for (const json::value& c : pod.at("spec").at("containers").as_array())
    p->containers.push_back(containerOf(c.as_object(), volumes));
  if (sandbox.ownNetwork) p->networkHolder = networkHolder();
  p->wrapper = sandboxWrapper(sandbox, podDir, p->networkHolder);
  std::lock_guard<std::mutex> lock(mu_);
  pods_[key] = p;
  report(key);  // Pending, ContainerCreating
  p->startTime = now();
  for (std::size_t i = 0; i < p->containers.size(); ++i) {
    Container& c = p->containers[i];
    c.pid = spawnLocal(c, c.command, false, p->wrapper).pid;
    c.startedAt = now();
    waiters_.emplace_back([this, key, i, pid = c.pid] { watchContainer(key, i, pid); });
  }
  report(key);  // Running
}

void LocalPodRuntime::watchContainer(const std::string& key, std::size_t index, int pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  std::lock_guard<std::mutex> lock(mu_);
  auto found = pods_.find(key);
  if (found == pods_.end()) return;  // deleted: no status to report
  found->second->containers[index].exitCode = exitCodeOf(status);
  found->second->containers[index].finishedAt = now();
  report(key);
}

void LocalPodRuntime::report(const std::string& key) {
  const Pod& pod = *pods_.at(key);
  json::array statuses;
  bool allDone = true, anyStarted = false, anyFailed = false;
  for (const Container& c : pod.containers) {
    statuses.push_back(containerStatus(c));
    allDone = allDone && c.exitCode.has_value();
    anyStarted = anyStarted || c.pid > 0;
    anyFailed = anyFailed || (c.exitCode && *c.exitCode != 0);
  }
  const char* phase = allDone ? (anyFailed ? "Failed" : "Succeeded") : (anyStarted ? "Running" : "Pending");
  json::object status{{"phase", phase}, {"containerStatuses", statuses}, {"hostIP", "127.0.0.1"}};
  if (!pod.startTime.empty()) status["startTime"] = pod.startTime;
  sink_(key, std::move(status));
}

void LocalPodRuntime::stop(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto found = pods_.find(key);
  if (found == pods_.end()) return;
  for (const Container& c : found->second->containers)
    if (c.pid > 0 && !c.exitCode) ::kill(-c.pid, SIGKILL);
  for (int pid : found->second->execPids) ::kill(-pid, SIGKILL);
  if (const int holder = found->second->networkHolder; holder > 0) {
    ::kill(-holder, SIGKILL);
    while (::waitpid(holder, nullptr, 0) < 0 && errno == EINTR) {}
  }
  pods_.erase(found);
}

std::string LocalPodRuntime::execRefusal(const std::string& key, const std::string& container) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto found = pods_.find(key);
  if (found == pods_.end()) return "pod does not exist";
  for (const Container& c : found->second->containers)
    if (c.name == container) return c.pid > 0 && !c.exitCode ? "" : "container " + container + " is not running";
  return "container " + container + " is not valid for pod";
}

void LocalPodRuntime::exec(const std::string& key, const std::string& container,
                           const std::vector<std::string>& command, bool withStdin, LocalHttpServer::WebSocket& ws) {
  std::shared_ptr<Pod> pod;
  Child child;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto found = pods_.find(key);
    if (found == pods_.end()) return;
    pod = found->second;
    auto c = std::find_if(pod->containers.begin(), pod->containers.end(),
                          [&](const Container& x) { return x.name == container; });
    child = spawnLocal(*c, command, true, pod->wrapper);
    pod->execPids.insert(child.pid);
  }
  // stdin as it arrives, while the output goes out: both directions at once, as the kubelet does.
  std::thread feeder([fd = child.in, withStdin, &ws] {
    while (withStdin) {
      std::optional<std::string> message = ws.read();
      if (!message || message->empty()) break;
      if (static_cast<unsigned char>((*message)[0]) == 255 && message->size() > 1 && (*message)[1] == 0) break;
      if ((*message)[0] != 0) continue;
      for (std::size_t at = 1; at < message->size();) {
        const ssize_t n = ::write(fd, message->data() + at, message->size() - at);
        if (n <= 0) break;
        at += static_cast<std::size_t>(n);
      }
    }
    ::close(fd);
  });
  forwardOutput(child, ws);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {}
  {
    std::lock_guard<std::mutex> lock(mu_);
    pod->execPids.erase(child.pid);
  }
  ws.write("\x03" + execStatus(command, exitCodeOf(status)));
  feeder.join();  // a client that keeps stdin open ends it by closing the connection
}

std::size_t LocalPodRuntime::liveProcesses() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::size_t n = 0;
  for (const auto& [key, pod] : pods_) {
    n += pod->execPids.size();
    for (const Container& c : pod->containers) n += c.pid > 0 && !c.exitCode ? 1 : 0;
  }
  return n;
}

}  // namespace lw::test
