#include "sandbox/landlock/landlock_plan.h"

#include <algorithm>
#include <map>

#include "sandbox/landlock/private_view.h"
#include "sandbox/system_paths.h"

namespace lw::sandbox::landlock {
namespace {

Error insufficient(std::string message, std::string hint) {
  return makeError(ErrorCode::SandboxCapabilityInsufficient, "linux-landlock: " + message, std::move(hint),
                   "linux-landlock");
}

// True when `inner` is `outer` or lies beneath it (component-wise).
bool within(const std::string& inner, const std::string& outer) {
  if (outer == "/") return true;
  return inner == outer ||
         (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '/');
}

Status checkKernel(const StepSpec& spec, const ConfinementFacts& f) {
  if (f.abi < 3)
    return insufficient("Landlock ABI " + std::to_string(f.abi) + " cannot stop truncate(2) on read-only files",
                        "Linux 6.2 or newer (Landlock ABI 3) is needed");
  if (!f.namespaces && f.abi < 6)
    return insufficient(
        "without a pid namespace or Landlock ABI 6 scoping, the step could "
        "signal host processes of the same user",
        "allow unprivileged user namespaces or use Linux 6.12 or newer");
  if (spec.network == NetworkMode::LoopbackOnly && !f.namespaces)
    return insufficient(
        "loopback-only needs a private network namespace (user namespaces "
        "are not available here); the host's loopback would be reachable",
        "allow unprivileged user namespaces, or use linux-bwrap");
  if (spec.network == NetworkMode::AllowList && !f.namespaces)
    return insufficient(
        "allow-list needs a private network namespace (user namespaces are not "
        "available here); the host's network would be reachable",
        "allow unprivileged user namespaces, or use linux-bwrap");
  if (spec.network == NetworkMode::AllowList && spec.egressSocket.empty())
    return insufficient("allow-list without an egress proxy to reach", "run the step through `loopwright run`");
  if (spec.network == NetworkMode::AllowOutbound)
    return insufficient(
        "allow-outbound would leave the host's loopback services reachable: "
        "Landlock filters TCP by port, not by address, and not UDP",
        "use linux-bwrap or docker for allow-outbound steps");
  return Ok{};
}

using Rules = std::map<std::string, PathRule>;

void merge(Rules& into, const std::string& path, std::uint64_t access, bool required) {
  PathRule& r = into[path];
  r.path = path;
  r.access |= access;
  r.required = r.required || required;
}

// Grants `access` on everything beneath `dir` except the denied paths, by
// granting each sibling along the way instead of `dir` itself (Landlock can
// only add rights beneath a path, never take them away).
Status explode(const std::string& dir, std::uint64_t access, const std::vector<std::string>& denied,
               const DirLister& list, Rules& out) {
  auto names = list(dir);
  if (!names)
    return insufficient("cannot list " + dir + " to leave a denied path out of it",
                        "make the directory readable, or use linux-bwrap");
  for (const std::string& name : *names) {
    std::string child = dir == "/" ? "/" + name : dir + "/" + name;
    bool isDenied = false, holdsDenied = false;
    for (const std::string& d : denied) {
      isDenied = isDenied || within(child, d);
      holdsDenied = holdsDenied || within(d, child);
    }
    if (isDenied) continue;
    if (holdsDenied) {
      if (Status st = explode(child, access, denied, list, out); !st) return st;
    } else {
      merge(out, child, access, false);
    }
  }
  return Ok{};
}

Result<Rules> carveOutDenied(Rules rules, const std::vector<std::string>& denied, const DirLister& list) {
  Rules out;
  for (const auto& [path, rule] : rules) {
    std::vector<std::string> beneath;
    for (const std::string& d : denied) {
      if (within(path, d))
        return insufficient("the granted path " + path + " lies inside the denied path " + d, "deny a narrower path");
      if (within(d, path)) beneath.push_back(d);
    }
    if (beneath.empty()) {
      merge(out, path, rule.access, rule.required);
      continue;
    }
    // Writable trees are refused: carving them up would stop the step from
    // creating entries beside the denied path, and new entries could not be
    // covered at all.
    if ((rule.access & ~kFsReadRights) != 0 || !list)
      return insufficient("denied path " + beneath.front() + " lies inside the writable path " + path +
                              "; Landlock cannot take a right away beneath a granted path",
                          "move the denied path out of the writable tree, or use linux-bwrap");
    if (Status st = explode(path, rule.access, beneath, list, out); !st) return st.error();
  }
  return out;
}

// New namespaces only where Landlock and seccomp cannot do the job: each
// costs start time (the private view a fork and a /proc mount).
void chooseNamespaces(const StepSpec& spec, const ConfinementFacts& f, Plan& p) {
  // allow-list: loopback only too; the way out is a listener loopwright
  // holds (egress_listener.h).
  p.networkNamespace = spec.network == NetworkMode::LoopbackOnly || spec.network == NetworkMode::AllowList;
  p.mountNamespace = f.privateView;
  p.pidNamespace = f.privateView || f.abi < 6;
  const bool any = p.networkNamespace || p.pidNamespace || p.mountNamespace;
  // Unprivileged, a user namespace is what allows the others, and what lets
  // the step empty its bounding set without CAP_SETPCAP.
  p.userNamespace = !f.holdsSysAdmin && (any || (f.namespaces && !f.holdsSetpcap));
  // A path-named unix socket anywhere readable is reachable under Landlock
  // (connect() is not a Landlock right): no new unix sockets at all. Without
  // a read-only view, metadata of the host's files is closed by seccomp.
  p.seccomp = seccomp::Options{spec.network, true, !p.mountNamespace};
}

// The trees the private view keeps read-write: the writable workspace, the
// out dir and the writable paths, each once, none inside another.
Result<std::vector<std::string>> writableTreesOf(const StepSpec& spec, const PathResolver& resolve) {
  std::vector<std::string> all;
  if (spec.workspaceWritable) all.push_back(resolve(spec.workspace.string()));
  if (!spec.outDir.empty()) all.push_back(resolve(spec.outDir.string()));
  for (const auto& w : spec.writablePaths) all.push_back(resolve(w.string()));
  std::sort(all.begin(), all.end());  // an ancestor sorts before what it holds
  std::vector<std::string> trees;
  for (const std::string& path : all) {
    auto holds = [&](const std::string& tree) { return within(path, tree); };
    if (std::none_of(trees.begin(), trees.end(), holds)) trees.push_back(path);
  }
  if (trees.size() > PreparedView::kMaxWritableTrees)
    return insufficient(std::to_string(trees.size()) +
                            " separate writable paths; the private "
                            "view takes at most " +
                            std::to_string(PreparedView::kMaxWritableTrees),
                        "make writable a common parent directory instead");
  return trees;
}

}  // namespace

const std::vector<std::string>& systemReadPaths() {
  // The same trees and /etc allow-list as linux-bwrap (system_paths.h).
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> p = systemTrees();
    p.push_back("/opt");
    p.insert(p.end(), systemEtcPaths().begin(), systemEtcPaths().end());
    p.insert(p.end(), {"/proc", "/sys/devices/system/cpu"});
    return p;
  }();
  return paths;
}

const std::vector<std::string>& systemDevicePaths() {
  static const std::vector<std::string> paths = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};
  return paths;
}

Result<Plan> plan(const StepSpec& spec, const ConfinementFacts& f, const PathResolver& resolve, const DirLister& list,
                  const OthersMayRead& othersMayRead) {
  if (f.abi < 1)
    return makeError(ErrorCode::SandboxBackendUnavailable, "linux-landlock: Landlock is not enabled in this kernel",
                     "boot with lsm=...,landlock or use linux-bwrap", "linux-landlock");
  if (Status st = checkKernel(spec, f); !st) return st.error();
  if (spec.workspace.empty())
    return makeError(ErrorCode::Internal, "linux-landlock: step without a workspace", {}, "linux-landlock");

  Plan p;
  p.abi = f.abi;
  const std::uint64_t all = fsRightsOf(f.abi);
  p.handled.handledAccessFs = all;
  p.handled.scoped = scopesOf(f.abi);
  // In a private network namespace everything is the step's own; otherwise
  // (mode none without namespaces) every TCP port stays closed.
  p.handled.handledAccessNet = (spec.network == NetworkMode::None) ? netRightsOf(f.abi) : 0;
  chooseNamespaces(spec, f, p);
  if (p.mountNamespace) {
    auto trees = writableTreesOf(spec, resolve);
    if (!trees) return std::move(trees).error();
    p.writableTrees = std::move(trees).value();
    p.workdir = resolve((spec.workdir.empty() ? spec.workspace : spec.workdir).string());
  }

  std::map<std::string, PathRule> rules;
  auto grant = [&](const std::string& raw, std::uint64_t access, bool required) {
    std::string path = resolve(raw);
    PathRule& r = rules[path];
    r.path = path;
    r.access |= access;
    r.required = r.required || required;
  };
  for (const std::string& s : systemReadPaths())
    if (!othersMayRead || othersMayRead(s)) grant(s, kFsReadRights, false);
  for (const std::string& s : systemDevicePaths()) grant(s, kFsReadFile | kFsWriteFile | (all & kFsTruncate), false);
  grant(spec.workspace.string(), spec.workspaceWritable ? all : kFsReadRights, true);
  if (!spec.outDir.empty()) grant(spec.outDir.string(), all, true);  // none for `sandbox exec`
  for (const auto& w : spec.writablePaths) grant(w.string(), all, true);
  for (const auto& r : spec.readOnlyPaths) grant(r.string(), kFsReadRights, true);

  std::vector<std::string> denied;
  for (const auto& d : spec.deniedReadPaths) denied.push_back(resolve(d.string()));
  auto carved = carveOutDenied(std::move(rules), denied, list);
  if (!carved) return std::move(carved).error();
  rules = std::move(carved).value();

  for (const auto& prot : spec.protectedPaths) {
    std::string path = resolve(prot.string());
    for (const auto& [root, rule] : rules)
      if ((rule.access & kFsWriteFile) && within(path, root)) {
        p.notEnforced.push_back("protected path " + path + " is writable inside " + root);
        break;
      }
  }
  for (auto& [path, rule] : rules) p.paths.push_back(std::move(rule));
  return p;
}

}  // namespace lw::sandbox::landlock
