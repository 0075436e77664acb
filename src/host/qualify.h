// `loopwright qualify`, the effect half: observe the host, probe each backend
// afresh, run its live canaries, settle claimed against observed, judge the
// floor, and cache a success under the host's fingerprint.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/environment.h"
#include "core/result.h"
#include "host/qualification.h"
#include "host/qualify_cache.h"
#include "policy/model/host_config.h"

namespace lw::host {

struct QualifyOptions {
  std::vector<BackendId> backends;   // empty: every backend
  std::optional<std::string> image;  // docker canaries run in it (else a runtime profile's)
  std::string binary;                // the loopwright binary (the canary program)
  std::string runnerDir;             // empty: found from the environment
  bool fresh = false;                // ignore the cache
  std::string tempRoot = "/tmp";
};

struct QualifyResult {
  boost::json::object report;  // qualification_report.h's JSON
  bool satisfied = false;
  std::string cacheNote;  // why nothing was cached, or where it was
};

// What the fingerprint is made of, observed now (cheap: no sandbox launch).
FingerprintInputs currentFingerprint(const Environment& env, const HostConfig& host, const std::string& hostConfigText,
                                     const QualifyOptions& options);

// Runs every probe and canary now.
Qualification qualifyFresh(const Environment& env, const HostConfig& host, const QualifyOptions& options);

// The cached report when the fingerprint matches (and not options.fresh),
// else a fresh qualification, stored when it satisfies the floor.
QualifyResult qualify(const Environment& env, const HostConfig& host, const std::string& hostConfigText,
                      const QualifyOptions& options);

// Loads the host config ($LOOPWRIGHT_HOST_CONFIG, which must exist, or
// /etc/loopwright/host.yaml, which may be absent) and its text, then
// qualify(). Fails with HOST_CONFIG_INVALID for a bad host config.
Result<QualifyResult> qualifyThisHost(const Environment& env, const QualifyOptions& options);

// The running binary (/proc/self/exe), for QualifyOptions::binary.
std::string thisBinary();

}  // namespace lw::host
