#include "host/qualify.h"

#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>

#include "core/executables.h"
#include "core/file_io.h"
#include "core/version.h"
#include "host/canary_runner.h"
#include "host/k8s_pod_setup.h"
#include "host/qualification_report.h"
#include "host/sha256.h"
#include "policy/load/host_config_loader.h"
#include "sandbox/registry/backend_registry.h"

namespace lw::host {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t msSince(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

bool wanted(const QualifyOptions& o, BackendId id) {
  if (o.backends.empty()) return true;
  for (BackendId b : o.backends)
    if (b == id) return true;
  return false;
}

// The backends this qualification is about, constructed (none probed yet).
std::vector<std::unique_ptr<sandbox::Backend>> wantedBackends(const Environment& env, const HostConfig& host,
                                                              const QualifyOptions& o) {
  sandbox::RegistryOptions ro = registryOptionsFor(host, env);
  ro.freshProbes = true;
  std::vector<std::unique_ptr<sandbox::Backend>> all = sandbox::makeBackends(env, ro);
  std::erase_if(all, [&o](const std::unique_ptr<sandbox::Backend>& b) { return !wanted(o, b->id()); });
  return all;
}

}  // namespace

FingerprintInputs currentFingerprint(const Environment& env, const HostConfig& host, const std::string& hostConfigText,
                                     const QualifyOptions& o) {
  FingerprintInputs in;
  struct utsname u {};
  if (::uname(&u) == 0) in.kernel = std::string(u.release) + " " + u.version;
  in.uid = ::getuid();
  in.loopwrightVersion = kVersion;
  struct stat st {};
  if (::stat(o.binary.c_str(), &st) == 0)
    in.loopwrightBinary =
        std::to_string(st.st_size) + "@" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  in.hostConfigHash = host.present ? sha256Hex(hostConfigText) : "";
  for (BackendId b : o.backends) in.options += std::string(toString(b)) + ",";
  in.options += "|image=" + o.image.value_or("") + "|runner=" + o.runnerDir;
  UsernsSysctls s = readUsernsSysctls();
  in.userns = std::to_string(s.apparmorRestrictUnprivilegedUserns.value_or(-1)) + "," +
              std::to_string(s.unprivilegedUsernsClone.value_or(-1)) + "," +
              std::to_string(s.maxUserNamespaces.value_or(-1));
  for (auto& backend : wantedBackends(env, host, o))
    if (std::string d = backend->hostDependencies(); !d.empty())
      in.backendDependencies[std::string(toString(backend->id()))] = d;
  return in;
}

Qualification qualifyFresh(const Environment& env, const HostConfig& host, const QualifyOptions& o) {
  const auto started = Clock::now();
  Qualification q;
  q.loopwrightVersion = kVersion;
  q.hostConfigFile = host.present ? host.file : "";
  q.facts = observeHost(env, findRunnerDir(env, o.runnerDir));
  q.qualifiedAt = std::time(nullptr);

  CanaryHost ch;
  ch.binary = o.binary;
  ch.env = env;
  ch.tempRoot = o.tempRoot;
  ch.image = o.image;
  if (!ch.image && !host.runtimeProfiles.empty()) ch.image = host.runtimeProfiles.begin()->second.image;
  for (auto& backend : wantedBackends(env, host, o)) {
    const auto t = Clock::now();
    BackendQualification b;
    b.claimed = backend->probe();
    b.traits = backend->traits();
    b.notes = backend->hostNotes();
    if (b.claimed.available) runCanaries(*backend, ch, b);
    if (b.traits.usesUserNamespaces && !b.claimed.available && !b.userns) {
      UsernsDiagnosis d = diagnoseUserns(b.claimed.unavailableReason, q.facts.userns);
      if (d.blocked) b.userns = d;
    }
    observeFromCanaries(b);
    settle(b);
    b.durationMs = msSince(t);
    q.backends.push_back(std::move(b));
  }
  q.verdict = evaluateFloor(host, q.facts.platform, q.backends);
  q.durationMs = msSince(started);
  return q;
}

QualifyResult qualify(const Environment& env, const HostConfig& host, const std::string& hostConfigText,
                      const QualifyOptions& o) {
  QualifyResult r;
  const std::string fingerprint = fingerprintOf(currentFingerprint(env, host, hostConfigText, o));
  const std::string file = cacheFile(host.stateDir, ::getuid());
  const std::int64_t now = std::time(nullptr);
  if (!o.fresh) {
    if (auto cached = loadCachedQualification(file, fingerprint, now)) {
      r.report = std::move(*cached);
      r.report["fromCache"] = true;
      // Cheap facts that the fingerprint does not cover (free disk, hooks) are re-observed.
      r.report["host"] = toJson(observeHost(env, findRunnerDir(env, o.runnerDir)));
      r.satisfied = floorSatisfied(r.report);
      r.cacheNote = "from the cache " + file;
      return r;
    }
  }
  Qualification q = qualifyFresh(env, host, o);
  q.fingerprint = fingerprint;
  r.report = toJson(q);
  r.satisfied = q.verdict.satisfied;
  if (!r.satisfied) {
    r.cacheNote = "not cached: a failed qualification is never cached";
  } else if (auto st = storeCachedQualification(file, fingerprint, r.report, now); !st) {
    r.cacheNote = "not cached: " + st.error().message;
  } else {
    r.cacheNote = "cached in " + file;
  }
  return r;
}

Result<QualifyResult> qualifyThisHost(const Environment& env, const QualifyOptions& options) {
  const bool named = env.get("LOOPWRIGHT_HOST_CONFIG").has_value();
  auto hostConfig = loadHostConfig(hostConfigPath(env), named);
  if (!hostConfig) return hostConfig.error();
  std::string text;
  if (hostConfig->present) {
    auto t = readBoundedFile(hostConfig->file, kHostConfigMaxBytes, ErrorCode::HostConfigInvalid);
    if (!t) return t.error();
    text = std::move(t).value();
  }
  QualifyOptions o = options;
  if (auto tmp = env.get("TMPDIR"); tmp && !tmp->empty() && (*tmp)[0] == '/') o.tempRoot = *tmp;
  return qualify(env, *hostConfig, text, o);
}

std::string thisBinary() { return runningExecutable().string(); }

}  // namespace lw::host
