#include "sandbox/bwrap/bwrap_plan.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "sandbox/system_paths.h"

namespace lw::sandbox::bwrap {
namespace {

namespace fs = std::filesystem;

Error planError(std::string message, std::string hint, const fs::path& subject) {
  return makeError(ErrorCode::SandboxLaunchFailed, std::move(message), std::move(hint), subject.string());
}

fs::path normal(const fs::path& p) {
  fs::path n = p.lexically_normal();
  std::string s = n.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return fs::path(s);
}

bool within(const fs::path& child, const fs::path& parent) {
  const std::string& c = child.native();
  const std::string& p = parent.native();
  if (p == "/") return true;
  return c == p || (c.size() > p.size() && c.compare(0, p.size(), p) == 0 && c[p.size()] == '/');
}

std::size_t depth(const fs::path& p) {
  return static_cast<std::size_t>(std::count(p.native().begin(), p.native().end(), '/'));
}

struct Mount {
  fs::path path;
  bool writable = false;
};

enum class Protect { Pin, SymlinkParent, ReadOnly, Placeholder, Rebind };
struct Protective {
  fs::path path;
  Protect kind;
  bool writable = false;  // Rebind only
};

class Planner {
 public:
  Planner(const StepSpec& spec, const BwrapOptions& options, const PathLookup& lookup)
      : spec_(spec), options_(options), lookup_(lookup) {}

  Result<BwrapPlan> run();

 private:
  fs::path hostPath(const fs::path& p) const { return normal(p.is_absolute() ? p : spec_.workspace / p); }
  // The mount that decides what the step sees at `p`: the deepest protective
  // mount covering it (they are applied shallow to deep), else the last user
  // mount covering it.
  std::optional<Mount> effective(const fs::path& p) const {
    const Protective* best = nullptr;
    for (const Protective& m : protective_) {
      if (within(p, m.path) && (best == nullptr || depth(m.path) >= depth(best->path))) best = &m;
    }
    if (best != nullptr) {
      bool w = best->kind == Protect::Pin || (best->kind == Protect::Rebind && best->writable);
      return Mount{best->path, w};
    }
    for (auto it = user_.rbegin(); it != user_.rend(); ++it) {
      if (within(p, it->path)) return *it;
    }
    return std::nullopt;
  }
  bool writable(const fs::path& p) const {
    auto m = effective(p);
    return m && m->writable;
  }
  const Mount* userRoot(const fs::path& p) const {
    for (auto it = user_.rbegin(); it != user_.rend(); ++it) {
      if (within(p, it->path)) return &*it;
    }
    return nullptr;
  }
  bool insideProtected(const fs::path& p) const {
    return std::any_of(protectedPaths_.begin(), protectedPaths_.end(), [&](const fs::path& q) { return within(p, q); });
  }
  void add(Protective m) {
    for (Protective& e : protective_) {
      if (e.path != m.path) continue;
      // Read-only wins over a pin at the same place.
      if (m.kind == Protect::ReadOnly || m.kind == Protect::SymlinkParent) e = m;
      return;
    }
    protective_.push_back(std::move(m));
  }
  // User mounts strictly below `top`, re-applied after a mount that hid them.
  void rebindBelow(const fs::path& top) {
    for (const Mount& u : user_) {
      if (u.path != top && within(u.path, top) && !insideProtected(u.path)) {
        add({u.path, Protect::Rebind, u.writable});
      }
    }
  }
  void bind(bool writable, const fs::path& src, const fs::path& dst) {
    argv_.insert(argv_.end(), {writable ? "--bind" : "--ro-bind", src.string(), dst.string()});
  }
  void protectSymlinks(const fs::path& p);
  void protectPath(const fs::path& p);
  void bindSystem();
  void addEtcEntry(const std::string& entry);
  Status bindUserPaths(const fs::path& ws);
  void bindProtected();
  Status maskDenied();
  Status mask(const fs::path& p);

  const StepSpec& spec_;
  const BwrapOptions& options_;
  const PathLookup& lookup_;
  std::vector<std::string> argv_;
  std::vector<Mount> user_;
  std::vector<fs::path> protectedPaths_;
  std::vector<Protective> protective_;
  BwrapPlan plan_;
};

// One /etc entry, as what it leads to: a symlink (resolv.conf into /run,
// localtime into /usr) may point outside the view. A file is copied into
// bwrap's root (--file, read-only once the root is): a bind would cost bwrap
// a parse of the whole mount table each, about 50 µs an entry, and the
// allow-list is most of the view's mounts. A directory is bound read-only.
// Left out: a missing or dangling entry, and one others may not read — a
// 0600 file root owns is still root's in the view, capabilities or not.
void Planner::addEtcEntry(const std::string& entry) {
  PathInfo info = lookup_(entry);
  if (info.resolvedKind != PathKind::File && info.resolvedKind != PathKind::Directory) return;
  if (!info.othersMayRead) {
    plan_.notes.push_back(entry + " is not readable by others on this host: left out of the view");
    return;
  }
  if (info.resolvedKind == PathKind::File) {
    const int fd = options_.firstCopyFd + static_cast<int>(plan_.copiedFiles.size());
    argv_.insert(argv_.end(), {"--perms", "0444", "--file", std::to_string(fd), entry});
    plan_.copiedFiles.emplace_back(entry);
  } else {
    bind(false, entry, entry);
  }
  user_.push_back({entry, false});
}

// Pass 1: a symlink on the way to a protected path cannot carry a mount (the
// kernel follows it), so the directory holding it becomes read-only.
void Planner::protectSymlinks(const fs::path& p) {
  const Mount* root = userRoot(p);
  if (root == nullptr) return;
  fs::path cur = root->path;
  fs::path rel = p.lexically_relative(root->path);
  for (const fs::path& part : rel) {
    if (part == ".") break;
    cur /= part;
    PathInfo info = lookup_(cur);
    if (info.kind == PathKind::Missing || info.kind == PathKind::File) return;
    if (info.kind == PathKind::Symlink) {
      fs::path parent = cur.parent_path();
      if (!writable(parent)) return;
      add({parent, Protect::SymlinkParent});
      rebindBelow(parent);
      plan_.notes.push_back("protected path " + p.string() + " goes through the symlink " + cur.string() + ": " +
                            parent.string() + " is read-only for this step");
      return;
    }
  }
}

// Pass 2: pin the writable ancestors, then make the path (or its first
// missing component) read-only.
void Planner::protectPath(const fs::path& p) {
  const Mount* root = userRoot(p);
  if (root == nullptr) return;  // not in the view at all
  bool somethingWritableBelow = std::any_of(
      user_.begin(), user_.end(), [&](const Mount& u) { return u.writable && u.path != p && within(u.path, p); });
  std::vector<fs::path> ancestors;
  fs::path cur = root->path;
  fs::path rel = p.lexically_relative(root->path);
  std::vector<fs::path> parts;
  for (const fs::path& part : rel) {
    if (part != ".") parts.push_back(part);
  }
  if (parts.empty()) {
    if (lookup_(p).kind != PathKind::Missing) add({p, Protect::ReadOnly});
    return;
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    fs::path parent = cur;
    cur /= parts[i];
    bool last = i + 1 == parts.size();
    PathInfo info = lookup_(cur);
    if (info.kind == PathKind::Symlink) return;  // handled in pass 1
    if (info.kind == PathKind::Directory && !last) {
      ancestors.push_back(cur);
      continue;
    }
    bool exposed = writable(parent) || writable(cur) || (last && somethingWritableBelow);
    if (!exposed) return;
    for (const fs::path& a : ancestors) {
      if (writable(a)) {
        add({a, Protect::Pin});
        rebindBelow(a);
      }
    }
    if (info.kind == PathKind::Missing) {
      add({cur, Protect::Placeholder});
      plan_.placeholders.push_back(cur);
    } else {
      add({cur, Protect::ReadOnly});
    }
    return;
  }
}

Status Planner::mask(const fs::path& p) {
  if (!effective(p)) return Ok{};  // not in the view: nothing to hide
  PathInfo info = lookup_(p);
  switch (info.kind) {
    case PathKind::Missing: return Ok{};
    case PathKind::Directory:
      argv_.insert(argv_.end(), {"--tmpfs", p.string(), "--remount-ro", p.string()});
      return Ok{};
    case PathKind::File:
    case PathKind::Other: argv_.insert(argv_.end(), {"--ro-bind", "/dev/null", p.string()}); return Ok{};
    case PathKind::Symlink:
      return planError("denied path " + p.string() + " is a symlink inside the sandbox view",
                       "deny the symlink's target (" + info.linkTarget + ") instead", p);
  }
  return Ok{};
}

// The system trees and the /etc allow-list, read-only, then /proc, /dev
// and the private /tmp.
void Planner::bindSystem() {
  // A system tree that is a symlink (/bin -> usr/bin) is recreated as one.
  for (const std::string& dir : systemTrees()) {
    PathInfo info = lookup_(dir);
    if (info.kind == PathKind::Directory) {
      bind(false, dir, dir);
      user_.push_back({dir, false});
    } else if (info.kind == PathKind::Symlink) {
      argv_.insert(argv_.end(), {"--symlink", info.linkTarget, dir});
    }
  }
  for (const std::string& entry : systemEtcPaths()) addEtcEntry(entry);
  // The private /tmp is RAM: bounded by the step's tmpSize (--size: bwrap 0.5).
  argv_.insert(argv_.end(), {"--proc", "/proc", "--dev", "/dev", "--size", std::to_string(spec_.limits.tmpBytes),
                             "--tmpfs", "/tmp"});
}

// The read-only paths, the workspace and the writable paths.
Status Planner::bindUserPaths(const fs::path& ws) {
  for (const fs::path& r : spec_.readOnlyPaths) {
    const fs::path p = normal(r);
    if (lookup_(p).kind != PathKind::Directory && lookup_(p).kind != PathKind::File)
      return planError("read-only path " + p.string() + " does not exist or is a symlink",
                       "name an existing file or directory by its real path", p);
    bind(false, p, p);
    user_.push_back({p, false});
  }
  bind(spec_.workspaceWritable, ws, ws);
  user_.push_back({ws, spec_.workspaceWritable});
  std::vector<fs::path> writables;
  for (const fs::path& w : spec_.writablePaths) writables.push_back(hostPath(w));
  if (!spec_.outDir.empty()) writables.push_back(hostPath(spec_.outDir));
  for (const fs::path& w : writables) {
    PathInfo info = lookup_(w);
    if (info.kind != PathKind::Directory && info.kind != PathKind::File) {
      return planError("writable path " + w.string() + " does not exist or is a symlink",
                       "create it first, and name the real path rather than a symlink", w);
    }
    bind(true, w, w);
    user_.push_back({w, true});
  }
  return Ok{};
}

// Protected paths, outermost first, after every writable bind.
void Planner::bindProtected() {
  for (const fs::path& p : spec_.protectedPaths) protectedPaths_.push_back(hostPath(p));
  for (const fs::path& p : protectedPaths_) protectSymlinks(p);
  for (const fs::path& p : protectedPaths_) protectPath(p);

  std::stable_sort(protective_.begin(), protective_.end(),
                   [](const Protective& a, const Protective& b) { return depth(a.path) < depth(b.path); });
  for (const Protective& m : protective_) {
    switch (m.kind) {
      case Protect::Pin: bind(true, m.path, m.path); break;
      case Protect::Rebind: bind(m.writable, m.path, m.path); break;
      case Protect::SymlinkParent:
      case Protect::ReadOnly: bind(false, m.path, m.path); break;
      case Protect::Placeholder:
        argv_.insert(argv_.end(), {"--tmpfs", m.path.string(), "--remount-ro", m.path.string()});
        break;
    }
  }
}

Status Planner::maskDenied() {
  for (const fs::path& d : spec_.deniedReadPaths) {
    auto s = mask(normal(d));
    if (!s) return s.error();
  }
  for (const char* secret : kSystemSecrets) {
    auto s = mask(secret);
    if (!s) return s.error();
  }
  return Ok{};
}

Result<BwrapPlan> Planner::run() {
  if (spec_.argv.empty()) return planError("no command to run", "give the step a command", {});
  if (!spec_.workspace.is_absolute()) {
    return planError("workspace " + spec_.workspace.string() + " is not an absolute path",
                     "pass the workspace as an absolute path", spec_.workspace);
  }
  const fs::path ws = normal(spec_.workspace);
  if (lookup_(ws).kind != PathKind::Directory) {
    return planError("workspace " + ws.string() + " is not a directory",
                     "create the workspace before launching the step", ws);
  }

  argv_ = {options_.bwrapPath, "--unshare-all", "--unshare-user", "--disable-userns"};
  if (spec_.network == NetworkMode::AllowOutbound) argv_.push_back("--share-net");
  argv_.insert(argv_.end(), {"--die-with-parent", "--new-session", "--cap-drop", "ALL"});
  bindSystem();
  if (Status st = bindUserPaths(ws); !st) return st.error();
  bindProtected();
  if (Status st = maskDenied(); !st) return st.error();

  // bwrap's root is a tmpfs in which it made the mount points (/etc among
  // them, now that /etc is not one bind): read-only from here on, so that
  // nothing but the writable paths and /tmp takes a write.
  argv_.insert(argv_.end(), {"--remount-ro", "/"});

  fs::path workdir = spec_.workdir.empty() ? ws : hostPath(spec_.workdir);
  argv_.insert(argv_.end(), {"--chdir", workdir.string()});
  if (options_.seccompFd) argv_.insert(argv_.end(), {"--seccomp", std::to_string(*options_.seccompFd)});
  argv_.push_back("--");
  argv_.insert(argv_.end(), spec_.argv.begin(), spec_.argv.end());
  plan_.argv = std::move(argv_);
  return std::move(plan_);
}

}  // namespace

Result<BwrapPlan> planBwrap(const StepSpec& spec, const BwrapOptions& options, const PathLookup& lookup) {
  return Planner(spec, options, lookup).run();
}

namespace {

PathKind kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return PathKind::Directory;
  if (S_ISREG(mode)) return PathKind::File;
  if (S_ISLNK(mode)) return PathKind::Symlink;
  return PathKind::Other;
}

}  // namespace

PathInfo lstatPath(const std::filesystem::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  PathInfo info{kindOf(st.st_mode), {}, kindOf(st.st_mode), othersMayRead(st)};
  if (info.kind != PathKind::Symlink) return info;
  char buf[4096];
  ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
  if (n > 0) info.linkTarget.assign(buf, static_cast<std::size_t>(n));
  struct stat target {};
  const bool dangling = ::stat(path.c_str(), &target) != 0;
  info.resolvedKind = dangling ? PathKind::Missing : kindOf(target.st_mode);
  info.othersMayRead = !dangling && othersMayRead(target);
  return info;
}

}  // namespace lw::sandbox::bwrap
