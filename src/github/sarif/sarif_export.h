// Every accepted finding of a run as one SARIF 2.1.0 log, for GitHub code
// scanning (`run --sarif FILE`, then github/codeql-action/upload-sarif).
// Pure. GitHub refuses a whole file when one result has no physical
// location, so findings on the change as a whole (no path) are left out
// and counted instead.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "core/finding.h"

namespace lw::github {

inline constexpr const char* kSarifSchemaUri = "https://json.schemastore.org/sarif-2.1.0.json";
// The key of our fingerprint in partialFingerprints (fingerprint.h).
inline constexpr const char* kSarifFingerprintKey = "loopwright/v1";

struct SarifLog {
  boost::json::value document;
  std::size_t results = 0;
  std::size_t leftOut = 0;  // findings without a path
};

// "error" | "warning" | "note"
std::string_view sarifLevel(Severity s);

// A repository-relative path as a URI reference: every byte outside
// RFC 3986's unreserved characters and '/' percent-encoded.
std::string sarifUri(const std::string& path);

// One run, tool.driver "loopwright" at `version`; a rule per rule id (its
// default level the most severe of its findings), a result per finding with
// a path, in the order given.
SarifLog sarifLog(const std::vector<Finding>& findings, const std::string& version);

}  // namespace lw::github
