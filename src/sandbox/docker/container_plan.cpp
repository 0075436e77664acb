#include "sandbox/docker/container_plan.h"

#include <optional>
#include <set>

#include <boost/json/array.hpp>

#include "core/json_text.h"
#include "core/paths.h"
#include "sandbox/egress_relay_argv.h"

namespace lw::sandbox::docker {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// A host tree bound into the container at the same path the step was given.
struct Tree {
  fs::path target;  // the path as the step sees it
  fs::path source;  // where it really is on the host
  bool writable = false;
};

Error planError(std::string message, std::string hint, const fs::path& subject) {
  return makeError(ErrorCode::SandboxLaunchFailed, std::move(message), std::move(hint), subject.string());
}

PathFact factOf(const PathFacts& facts, const fs::path& p) {
  const auto it = facts.find(p);
  return it == facts.end() ? PathFact{} : it->second;
}

// True when `p` inside `tree` leads to the same place on the host as inside
// the container: no symlink on the way. A bind source is resolved on the
// host, so a symlink planted in the workspace would otherwise bind whatever
// it points to (~/.ssh, /etc) into the container.
bool reachedDirectly(const PathFact& fact, const Tree& tree, const fs::path& p) {
  const fs::path rel = p.lexically_relative(tree.target);
  const fs::path expected = rel == "." ? tree.source : (tree.source / rel).lexically_normal();
  return !fact.isSymlink && fact.real == expected;
}

json::object bindMount(const fs::path& source, const fs::path& target, bool readOnly) {
  // NonRecursive: host mounts below the source (a mounted secret, another
  // checkout) stay out of the container; a read-only bind would not make
  // them read-only on engines before 25.0.
  return {{"Type", "bind"},
          {"Source", source.string()},
          {"Target", target.string()},
          {"ReadOnly", readOnly},
          {"BindOptions", {{"Propagation", "rprivate"}, {"NonRecursive", true}}}};
}

json::object tmpfsMount(const fs::path& target, bool readOnly, std::int64_t size, int mode) {
  return {{"Type", "tmpfs"},
          {"Target", target.string()},
          {"ReadOnly", readOnly},
          {"TmpfsOptions", {{"SizeBytes", size}, {"Mode", mode}}}};
}

const Tree* writableTreeOf(const std::vector<Tree>& trees, const fs::path& p) {
  const Tree* best = nullptr;
  for (const auto& t : trees)
    if (t.writable && isWithinOrSame(p, t.target) &&
        (best == nullptr || t.target.string().size() > best->target.string().size()))
      best = &t;
  return best;
}

const Tree* visibleTreeOf(const std::vector<Tree>& trees, const fs::path& p) {
  const Tree* best = nullptr;
  for (const auto& t : trees)
    if (isWithinOrSame(p, t.target) && (best == nullptr || t.target.string().size() > best->target.string().size()))
      best = &t;
  return best;
}

Result<std::vector<Tree>> boundTrees(const ContainerPlanInput& in, const fs::path& ws,
                                     std::vector<std::string>& notes) {
  std::vector<Tree> trees;
  const PathFact wsFact = factOf(in.facts, ws);
  if (wsFact.kind != PathKind::Directory)
    return planError("workspace " + ws.string() + " is not a directory on this host",
                     "create the checkout before launching the step", ws);
  trees.push_back({ws, wsFact.real, in.spec.workspaceWritable});

  for (const auto& raw : in.spec.writablePaths) {
    const fs::path p = anchoredPath(ws, raw);
    const PathFact fact = factOf(in.facts, p);
    if (in.spec.workspaceWritable && isWithinOrSame(p, ws)) continue;
    if (p == ws) {  // the whole workspace is the writable scope
      trees.front().writable = true;
      continue;
    }
    if (fact.kind == PathKind::Missing) {
      notes.push_back("writable path " + p.string() + " does not exist: not bound");
      continue;
    }
    if (isWithinOrSame(p, ws) && !reachedDirectly(fact, trees.front(), p))
      return planError("writable path " + p.string() + " is reached through a symlink",
                       "a writable bind would follow it out of the workspace; remove the symlink "
                       "or name the real path",
                       p);
    trees.push_back({p, fact.real, true});
  }

  if (in.spec.outDir.empty()) return trees;  // `sandbox exec` has none
  const fs::path out = anchoredPath(ws, in.spec.outDir);
  const PathFact outFact = factOf(in.facts, out);
  if (outFact.kind != PathKind::Directory)
    return planError("out dir " + out.string() + " is not a directory on this host",
                     "the orchestrator creates LOOPWRIGHT_OUT before launching the step", out);
  trees.push_back({out, outFact.real, true});
  return trees;
}

// Per-process limits, set by the engine in the container's init before the
// step (soft = hard: the step cannot raise them).
json::array ulimitsOf(const ResourceLimits& l) {
  auto ulimit = [](std::string_view name, std::int64_t v) {
    return json::object{{"Name", name}, {"Soft", v}, {"Hard", v}};
  };
  json::array out{ulimit("core", 0), ulimit("fsize", l.fileSizeBytes), ulimit("nofile", l.openFiles)};
  if (l.cpuSeconds) out.push_back(ulimit("cpu", *l.cpuSeconds));
  return out;
}

// Every bind and tmpfs of the container, at most one per target: the first
// mount planned for a path wins.
struct Mounts {
  json::array list;
  std::set<fs::path> targets;

  bool claim(const fs::path& target) { return targets.insert(target).second; }
  void add(const fs::path& target, json::object mount) {
    if (claim(target)) list.push_back(std::move(mount));
  }
};

std::optional<Error> refusedInput(const ContainerPlanInput& in) {
  const StepSpec& spec = in.spec;
  if (in.initBinary.empty() || in.filterFile.empty())
    return planError("no container init or seccomp filter to bind in",
                     "install loopwright-container-init beside loopwright", "docker");
  if (spec.argv.empty() || spec.argv.front().empty())
    return planError("the step has no command", "give the program to run", {});
  if (!spec.workspace.is_absolute())
    return planError("workspace '" + spec.workspace.string() + "' is not an absolute path", "pass an absolute path",
                     spec.workspace);
  // Host binaries and files do not run in another root file system; the
  // image brings its own tools.
  if (!spec.readOnlyPaths.empty())
    return planError("the docker backend does not bind extra host paths into the container",
                     "put what the step needs into the pinned image", spec.readOnlyPaths.front());
  if (spec.passFd)
    return planError("the docker backend cannot hand a descriptor to a container",
                     "give the bridge as a unix socket path inside LOOPWRIGHT_OUT instead of fd:N", "docker");
  return std::nullopt;
}

// The Engine API is JSON and dockerd reads a string that is not UTF-8 as
// another one (U+FFFD in place of the bad bytes): it would bind, or create
// as root, a path other than the one meant, and run another command.
std::optional<Error> notUtf8(const StepSpec& spec) {
  std::vector<std::string> texts = {spec.workspace.string(), spec.outDir.string(), spec.egressSocket.string()};
  for (const auto* list : {&spec.writablePaths, &spec.protectedPaths, &spec.deniedReadPaths})
    for (const fs::path& p : *list) texts.push_back(p.string());
  texts.insert(texts.end(), spec.argv.begin(), spec.argv.end());
  for (const auto& [name, value] : spec.env) texts.insert(texts.end(), {name, value});
  for (const std::string& t : texts)
    if (!isValidUtf8(t))
      return planError("'" + repairUtf8(t) + "' is not UTF-8, which the Docker Engine API cannot carry",
                       "rename the path (or pass the argument) in UTF-8, or use a linux-* backend", "docker");
  return std::nullopt;
}

void addTreeMounts(const ContainerPlanInput& in, const std::vector<Tree>& trees, Mounts& mounts) {
  for (const auto& t : trees) mounts.add(t.target, bindMount(t.source, t.target, !t.writable));
  // The init connects the bridge and installs the filter, then execs the step.
  for (auto [source, target] : {std::pair{in.initBinary, kInitTarget}, std::pair{in.filterFile, kFilterTarget}})
    mounts.add(fs::path(target), bindMount(source, fs::path(target), true));
  // allow-list: the step's egress proxy, reached by the relay only (containerBody).
  if (!in.spec.egressSocket.empty()) {
    const fs::path dir = in.spec.egressSocket.parent_path();
    mounts.add(dir, bindMount(dir, dir, true));
  }
  // The root filesystem is read-only; programs still expect a writable /tmp.
  mounts.add("/tmp", tmpfsMount("/tmp", false, in.spec.limits.tmpBytes, 01777));
}

// Denied paths come first: masking wins over a read-only re-bind of the same path.
std::optional<Error> addDeniedMounts(const ContainerPlanInput& in, const fs::path& ws, const std::vector<Tree>& trees,
                                     Mounts& mounts, std::vector<std::string>& notes) {
  for (const auto& raw : in.spec.deniedReadPaths) {
    const fs::path d = anchoredPath(ws, raw);
    for (const auto& t : trees)
      if (isWithinOrSame(t.target, d))
        return planError(t.target.string() + " lies inside the denied path " + d.string(),
                         "the step would read the denied tree; move the workspace or out dir", d);
    const Tree* tree = visibleTreeOf(trees, d);
    if (tree == nullptr) continue;  // not in the container's view at all
    const PathFact fact = factOf(in.facts, d);
    if (fact.kind == PathKind::Missing) continue;  // nothing to read
    if (!reachedDirectly(fact, *tree, d)) {
      notes.push_back("denied path " + d.string() +
                      " is reached through a symlink: the link is resolved inside the "
                      "container's view, not masked");
      continue;
    }
    mounts.add(d, fact.kind == PathKind::Directory ? tmpfsMount(d, true, 4096, 0500) : bindMount("/dev/null", d, true));
  }
  return std::nullopt;
}

// Protected paths inside a writable tree, as bubblewrap does it: every
// directory between the tree and the path is pinned (bound onto itself, so
// a mount point the step cannot rename away), and the path itself, or its
// first missing component as an empty placeholder, is bound read-only.
std::optional<Error> pinProtectedPath(const ContainerPlanInput& in, const Tree& tree, const fs::path& p, Mounts& mounts,
                                      ContainerPlan& plan) {
  std::vector<fs::path> chain;  // tree (exclusive) down to p
  for (fs::path a = p; isStrictlyWithin(a, tree.target); a = a.parent_path()) chain.insert(chain.begin(), a);
  for (const fs::path& c : chain) {
    const PathFact fact = factOf(in.facts, c);
    if (fact.kind != PathKind::Missing && !reachedDirectly(fact, tree, c)) {
      plan.notes.push_back("protected path " + p.string() + " is reached through a symlink" +
                           (c == p ? "" : " (" + c.string() + ")") + ": not re-bound, left to verify");
      return std::nullopt;
    }
    if (fact.kind == PathKind::Missing) {
      if (in.emptyDir.empty())
        return planError("no empty directory to mask the missing protected path " + c.string(),
                         "the launcher provides one", c);
      if (mounts.claim(c)) {
        plan.placeholders.push_back(tree.source / c.lexically_relative(tree.target));
        mounts.list.push_back(bindMount(in.emptyDir, c, true));
      }
      return std::nullopt;
    }
    if (c == p) {
      mounts.add(c, bindMount(fact.real, c, true));
    } else if (fact.kind == PathKind::Directory) {
      mounts.add(c, bindMount(fact.real, c, false));  // pin
    } else {
      return std::nullopt;  // a file where a directory would be: nothing below can exist
    }
  }
  return std::nullopt;
}

std::optional<Error> addProtectedMounts(const ContainerPlanInput& in, const fs::path& ws,
                                        const std::vector<Tree>& trees, Mounts& mounts, ContainerPlan& plan) {
  for (const auto& raw : in.spec.protectedPaths) {
    const fs::path p = anchoredPath(ws, raw);
    for (const auto& t : trees)
      if (t.writable && isWithinOrSame(t.target, p))
        return planError("writable path " + t.target.string() + " lies inside the protected path " + p.string(),
                         "protected paths stay read-only; narrow the writable scope", p);
    const Tree* tree = writableTreeOf(trees, p);
    if (tree == nullptr) continue;  // already read-only or not visible
    if (auto error = pinProtectedPath(in, *tree, p, mounts, plan)) return error;
  }
  return std::nullopt;
}

Result<json::array> envOf(const StepSpec& spec) {
  json::array env;
  for (const auto& [k, v] : spec.env) {
    if (k.empty() || k.find('=') != std::string::npos)
      return planError("environment variable name '" + k + "' is invalid", "names are non-empty and contain no '='", k);
    env.push_back(json::string(k + "=" + v));
  }
  return env;
}

json::object hostConfigOf(const StepSpec& spec, json::array mounts) {
  const char* network = spec.network == NetworkMode::AllowOutbound ? "bridge" : "none";
  return json::object{{"NetworkMode", network},
                      {"ReadonlyRootfs", true},
                      {"CapDrop", json::array{"ALL"}},
                      {"SecurityOpt", json::array{"no-new-privileges"}},
                      {"Privileged", false},
                      {"Init", true},
                      {"IpcMode", "private"},
                      {"CgroupnsMode", "private"},
                      {"PidsLimit", spec.limits.pids},
                      {"Memory", spec.limits.memoryBytes},
                      {"MemorySwap", spec.limits.memoryBytes},  // equal to Memory: no swap on top
                      {"Ulimits", ulimitsOf(spec.limits)},
                      // A bound on the engine's disk, not on what is captured (that is
                      // maxOutputBytes); past it the engine rotates and the count is low.
                      {"LogConfig", {{"Type", "json-file"}, {"Config", {{"max-size", "256m"}, {"max-file", "1"}}}}},
                      {"RestartPolicy", {{"Name", "no"}}},
                      {"AutoRemove", false},
                      {"Mounts", std::move(mounts)}};
}

json::object containerBody(const ContainerPlanInput& in, const fs::path& ws, json::array env, json::array mounts) {
  const StepSpec& spec = in.spec;
  std::vector<std::string> command = {std::string(kInitTarget), std::string(kFilterTarget), "--"};
  command.insert(command.end(), spec.argv.begin(), spec.argv.end());
  // allow-list: NetworkMode none, and the egress relay first, outside the
  // filter that refuses the step new unix sockets (docs/egress.md).
  if (!spec.egressSocket.empty()) command = behindEgressRelay(std::string(kInitTarget), spec.egressSocket, command);
  json::array entrypoint;
  for (const std::string& a : command) entrypoint.push_back(json::string(a));
  const fs::path workdir = spec.workdir.empty() ? ws : anchoredPath(ws, spec.workdir);
  return json::object{{"Image", in.image.reference},
                      {"Entrypoint", std::move(entrypoint)},
                      {"Cmd", json::array{}},
                      {"Env", std::move(env)},
                      {"WorkingDir", workdir.string()},
                      {"User", in.user},
                      {"Hostname", "loopwright"},
                      {"Labels", {{kRunLabel, in.runLabel}, {kStepLabel, in.stepLabel}}},
                      {"AttachStdin", false},
                      {"AttachStdout", false},
                      {"AttachStderr", false},
                      {"OpenStdin", false},
                      {"StdinOnce", false},
                      {"Tty", false},
                      {"HostConfig", hostConfigOf(spec, std::move(mounts))}};
}

}  // namespace

std::vector<limits::Enforcement> containerLimitsEnforcement(const ResourceLimits& l) {
  using limits::Enforcement;
  std::vector<Enforcement> out{{ResourceLimit::Pids, l.pids, true, "container PidsLimit", "the container's cgroup"},
                               {ResourceLimit::Memory, l.memoryBytes, true, "container Memory and MemorySwap",
                                "the container's cgroup, its /tmp pages included; no swap on top"},
                               {ResourceLimit::FileSize, l.fileSizeBytes, true, "container ulimit fsize",
                                "per file; the number of files is not bounded"},
                               {ResourceLimit::OpenFiles, l.openFiles, true, "container ulimit nofile", "per process"}};
  if (l.cpuSeconds)
    out.push_back({ResourceLimit::CpuSeconds, l.cpuSeconds, true, "container ulimit cpu", "per process"});
  else
    out.push_back({ResourceLimit::CpuSeconds, std::nullopt, false, "not asked",
                   "no cpuSeconds limit; the wall time bounds the step"});
  out.push_back({ResourceLimit::TmpSize, l.tmpBytes, true, "the size of the private /tmp tmpfs", ""});
  return out;
}

Result<ContainerPlan> planContainer(const ContainerPlanInput& in) {
  if (auto refused = refusedInput(in)) return *refused;
  const fs::path ws = anchoredPath("/", in.spec.workspace);
  if (ws == "/") return planError("the workspace cannot be /", "use the repository checkout", ws);
  if (auto refused = notUtf8(in.spec)) return *refused;

  ContainerPlan plan;
  auto trees = boundTrees(in, ws, plan.notes);
  if (!trees) return trees.error();
  Mounts mounts;
  addTreeMounts(in, *trees, mounts);
  if (auto error = addDeniedMounts(in, ws, *trees, mounts, plan.notes)) return *error;
  if (auto error = addProtectedMounts(in, ws, *trees, mounts, plan)) return *error;
  auto env = envOf(in.spec);
  if (!env) return env.error();
  plan.body = containerBody(in, ws, std::move(*env), std::move(mounts.list));
  return plan;
}

}  // namespace lw::sandbox::docker
