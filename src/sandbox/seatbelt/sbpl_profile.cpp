#include "sandbox/seatbelt/sbpl_profile.h"

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
    return makeError(ErrorCode::SandboxLaunchFailed,
                     what + " '" + p.string() + "' is not an absolute path",
                     "pass absolute paths (canonicalSpec does)", p.string());
  for (unsigned char c : p.string())
    if (c < 0x20 || c == 0x7f)
      return makeError(ErrorCode::SandboxLaunchFailed,
                       what + " '" + p.string() + "' holds a control character",
                       "rename the path; an SBPL profile cannot name it faithfully", p.string());
  return Ok{};
}

std::string filters(const char* kind, const std::vector<fs::path>& paths) {
  std::string out;
  for (const auto& p : paths) out += std::string(" (") + kind + " " + sbplQuote(p.string()) + ")";
  return out;
}

}  // namespace

std::vector<std::string> defaultSystemReadPaths() {
  return {"/usr", "/bin", "/sbin", "/System", "/Library", "/opt/homebrew",
          "/private/etc", "/private/var/db/timezone", "/private/var/select"};
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
  const StepSpec& spec = in.spec;
  if (auto st = checkPath("workspace", spec.workspace); !st) return st.error();
  const fs::path ws = anchored("/", spec.workspace);

  std::vector<fs::path> system;
  for (const auto& s : in.systemReadPaths) system.push_back(anchored("/", s));
  std::vector<fs::path> readable{ws};
  for (const auto& p : spec.readOnlyPaths) readable.push_back(anchored("/", p));
  std::vector<fs::path> writable;
  if (!spec.outDir.empty()) writable.push_back(anchored(ws, spec.outDir));  // none for `sandbox exec`
  if (spec.workspaceWritable) writable.push_back(ws);
  for (const auto& p : spec.writablePaths) writable.push_back(anchored(ws, p));
  for (const auto& w : writable)
    if (std::find(readable.begin(), readable.end(), w) == readable.end()) readable.push_back(w);
  std::vector<fs::path> protectedPaths, denied;
  for (const auto& p : spec.protectedPaths) protectedPaths.push_back(anchored(ws, p));
  for (const auto& p : spec.deniedReadPaths) denied.push_back(anchored(ws, p));
  for (const auto* list : {&system, &readable, &protectedPaths, &denied})
    for (const auto& p : *list)
      if (auto st = checkPath("path", p); !st) return st.error();

  // A protected path could be moved out from under its rule by renaming a
  // directory above it: those directories (up to the writable root) are
  // pinned, their own entries unwritable, their contents not.
  std::set<fs::path> pinned;
  for (const auto& p : protectedPaths)
    for (const auto& root : writable)
      if (isStrictlyWithin(p, root))
        for (fs::path a = p.parent_path(); isWithinOrSame(a, root); a = a.parent_path()) {
          pinned.insert(a);
          if (a == root || a == a.parent_path()) break;
        }

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
  t += "\n; System paths, read-only.\n";
  t += "(allow file-read*" + filters("subpath", system) + ")\n";
  t += "\n; The step's trees.\n";
  t += "(allow file-read*" + filters("subpath", readable) + ")\n";
  if (!writable.empty()) t += "(allow file-write*" + filters("subpath", writable) + ")\n";

  t += "\n; Network: " + std::string(toString(spec.network)) + ".\n";
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

  if (!protectedPaths.empty()) {
    t += "\n; Protected: read-only even inside writable trees, and never hard-linked.\n";
    t += "(deny file-write* file-link" + filters("subpath", protectedPaths) + ")\n";
  }
  if (!pinned.empty()) {
    t += "(deny file-write*" + filters("literal", {pinned.begin(), pinned.end()}) + ")\n";
  }
  if (!denied.empty()) {
    t += "\n; Denied: neither read, written, nor linked.\n";
    t += "(deny file-read* file-write* file-link" + filters("subpath", denied) + ")\n";
  }
  return t;
}

StepSpec canonicalSpec(const StepSpec& spec) {
  StepSpec out = spec;
  auto resolve = [](const fs::path& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : r;
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

std::vector<std::string> sandboxExecArgv(const std::string& profile,
                                         const std::vector<std::string>& argv) {
  std::vector<std::string> out{"/usr/bin/sandbox-exec", "-p", profile};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

}  // namespace lw::sandbox::seatbelt
