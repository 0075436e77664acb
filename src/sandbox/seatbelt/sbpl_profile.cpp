#include "sandbox/seatbelt/sbpl_profile.h"

#include "sandbox/seatbelt/darwin_paths.h"

#include <algorithm>
#include <set>

#include "core/paths.h"

namespace lw::sandbox::seatbelt {
namespace {

namespace fs = std::filesystem;

fs::path anchored(const fs::path& workspace, const fs::path& p) {
  fs::path abs = (p.is_absolute() ? p : workspace / p).lexically_normal();
  if (abs.has_relative_path() && !abs.has_filename()) abs = abs.parent_path();
  return abs;
}

Status checkPath(const std::string& what, const fs::path& p) {
  if (!p.is_absolute())
    return makeError(ErrorCode::SandboxLaunchFailed, what + " '" + p.string() + "' is not an absolute path",
                     "pass absolute paths (canonicalSpec does)", p.string());
  for (unsigned char c : p.string())
    if (c < 0x20 || c == 0x7f)
      return makeError(ErrorCode::SandboxLaunchFailed, what + " '" + p.string() + "' holds a control character",
                       "rename the path; an SBPL profile cannot name it faithfully", p.string());
  return Ok{};
}

std::string filters(const char* kind, const std::vector<fs::path>& paths) {
  std::string out;
  for (const auto& p : paths) out += std::string(" (") + kind + " " + sbplQuote(p.string()) + ")";
  return out;
}

// The trees a profile names, anchored and checked.
struct ProfilePaths {
  std::vector<fs::path> system, readable, writable, protectedPaths, denied;
};

Result<ProfilePaths> profilePathsOf(const SbplInput& in) {
  const StepSpec& spec = in.spec;
  if (auto st = checkPath("workspace", spec.workspace); !st) return st.error();
  const fs::path ws = anchored("/", spec.workspace);
  ProfilePaths out;
  for (const auto& s : in.systemReadPaths) out.system.push_back(anchored("/", s));
  out.readable.push_back(ws);
  for (const auto& p : spec.readOnlyPaths) out.readable.push_back(anchored("/", p));
  if (!spec.outDir.empty()) out.writable.push_back(anchored(ws, spec.outDir));  // none for `sandbox exec`
  if (spec.workspaceWritable) out.writable.push_back(ws);
  for (const auto& p : spec.writablePaths) out.writable.push_back(anchored(ws, p));
  for (const auto& w : out.writable)
    if (std::find(out.readable.begin(), out.readable.end(), w) == out.readable.end()) out.readable.push_back(w);
  for (const auto& p : spec.protectedPaths) out.protectedPaths.push_back(anchored(ws, p));
  for (const auto& p : spec.deniedReadPaths) out.denied.push_back(anchored(ws, p));
  for (const auto* list : {&out.system, &out.readable, &out.protectedPaths, &out.denied})
    for (const auto& p : *list)
      if (auto st = checkPath("path", p); !st) return st.error();
  return out;
}

// A protected path could be moved out from under its rule by renaming a
// directory above it: those directories (up to the writable root) are
// pinned, their own entries unwritable, their contents not.
std::vector<fs::path> pinnedDirs(const ProfilePaths& paths) {
  std::set<fs::path> pinned;
  for (const auto& p : paths.protectedPaths)
    for (const auto& root : paths.writable)
      if (isStrictlyWithin(p, root))
        for (fs::path a = p.parent_path(); isWithinOrSame(a, root); a = a.parent_path()) {
          pinned.insert(a);
          if (a == root || a == a.parent_path()) break;
        }
  return {pinned.begin(), pinned.end()};
}

std::string processRules() {
  std::string t;
  t += "(version 1)\n";
  t += "; loopwright step profile. Deny by default; the last matching rule wins.\n";
  t += "(deny default)\n";
  t += "\n; The step and its children; signals and process info only among them.\n";
  t += "(allow process-exec)\n(allow process-fork)\n";
  t += "(allow signal (target same-sandbox))\n(allow process-info* (target same-sandbox))\n";
  t += "(allow sysctl-read)\n(allow ipc-posix-sem)\n";
  t += "; getpwuid() and friends ask opendirectoryd.\n";
  t += "(allow mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n";
  t += "; Path lookups stat every ancestor; contents stay denied below.\n";
  t += "(allow file-read-metadata)\n";
  t += "; /dev/fd/N and /dev/stdout name descriptors the step already holds.\n";
  t += "(allow file-read* file-write-data (literal \"/dev/null\") (literal \"/dev/zero\") "
       "(literal \"/dev/stdout\") (literal \"/dev/stderr\") (subpath \"/dev/fd\"))\n";
  t += "(allow file-read* (literal \"/dev/random\") (literal \"/dev/urandom\"))\n";
  return t;
}

std::string treeRules(const ProfilePaths& paths) {
  std::string t;
  t += "\n; System paths, read-only.\n";
  t += "(allow file-read*" + filters("subpath", paths.system) + ")\n";
  t += "\n; The step's trees.\n";
  t += "(allow file-read*" + filters("subpath", paths.readable) + ")\n";
  if (!paths.writable.empty()) t += "(allow file-write*" + filters("subpath", paths.writable) + ")\n";
  return t;
}

Result<std::string> networkRules(const StepSpec& spec) {
  std::string t = "\n; Network: " + std::string(toString(spec.network)) + ".\n";
  t += "(deny network*)\n";
  const auto bridge = spec.env.find("LOOPWRIGHT_BRIDGE");
  if (bridge != spec.env.end() && !bridge->second.empty() && bridge->second.rfind("fd:", 0) != 0) {
    if (auto st = checkPath("bridge socket", bridge->second); !st) return st.error();
    t += "(allow network-outbound (remote unix-socket (path-literal " + sbplQuote(bridge->second) + ")))\n";
  }
  if (spec.network == NetworkMode::LoopbackOnly) {
    t += "(allow network-bind network-inbound (local ip \"localhost:*\"))\n";
    t += "(allow network-outbound (remote ip \"localhost:*\"))\n";
  } else if (spec.network == NetworkMode::AllowOutbound) {
    t += "(allow network-outbound (remote ip \"*:*\"))\n";
    t += "; Name resolution goes through mDNSResponder's socket.\n";
    t += "(allow network-outbound (remote unix-socket (path-literal \"/private/var/run/mDNSResponder\")))\n";
    t += "; Not the host's own services.\n";
    t += "(deny network-outbound (remote ip \"localhost:*\"))\n";
  }
  return t;
}

// Last, so that they win over the allowances above.
std::string restrictionRules(const ProfilePaths& paths) {
  std::string t;
  if (!paths.protectedPaths.empty()) {
    t += "\n; Protected: read-only even inside writable trees, and never hard-linked.\n";
    t += "(deny file-write* file-link" + filters("subpath", paths.protectedPaths) + ")\n";
  }
  if (const std::vector<fs::path> pinned = pinnedDirs(paths); !pinned.empty())
    t += "(deny file-write*" + filters("literal", pinned) + ")\n";
  if (!paths.denied.empty()) {
    t += "\n; Denied: neither read, written, nor linked.\n";
    t += "(deny file-read* file-write* file-link" + filters("subpath", paths.denied) + ")\n";
  }
  return t;
}

}  // namespace

std::vector<std::string> defaultSystemReadPaths() {
  return {"/usr",
          "/bin",
          "/sbin",
          "/System",
          "/Library",
          "/opt/homebrew",
          "/private/etc",
          "/private/var/db/timezone",
          "/private/var/select"};
}

std::string sbplQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

Result<std::string> sbplProfile(const SbplInput& in) {
  auto paths = profilePathsOf(in);
  if (!paths) return paths.error();
  auto network = networkRules(in.spec);
  if (!network) return network.error();
  return processRules() + treeRules(*paths) + *network + restrictionRules(*paths);
}

StepSpec canonicalSpec(const StepSpec& spec) {
  StepSpec out = spec;
  auto resolve = [](const fs::path& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(p, ec);
#if defined(__APPLE__)
    // Unresolvable (a parent not searchable): still the kernel's spelling.
    return ec ? privateSpelling(p) : r;
#else
    return ec ? p.lexically_normal() : r;
#endif
  };
  const fs::path ws = resolve(anchored("/", spec.workspace));
  out.workspace = ws;
  if (!spec.outDir.empty()) out.outDir = resolve(anchored(ws, spec.outDir));
  if (!spec.workdir.empty()) out.workdir = resolve(anchored(ws, spec.workdir));
  for (auto& p : out.writablePaths) p = resolve(anchored(ws, p));
  for (auto& p : out.readOnlyPaths) p = resolve(anchored("/", p));
  // A protected or denied path that is itself a symlink is named twice: the
  // link (which could otherwise be replaced) and what it leads to.
  for (auto* list : {&out.protectedPaths, &out.deniedReadPaths}) {
    std::vector<fs::path> both;
    for (const auto& p : *list) {
      const fs::path a = anchored(ws, p);
      const fs::path link = resolve(a.parent_path()) / a.filename();
      both.push_back(link);
      if (const fs::path target = resolve(a); target != link) both.push_back(target);
    }
    *list = std::move(both);
  }
  return out;
}

std::vector<std::string> sandboxExecArgv(const std::string& profile, const std::vector<std::string>& argv) {
  std::vector<std::string> out{"/usr/bin/sandbox-exec", "-p", profile};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

}  // namespace lw::sandbox::seatbelt
