// Finds secrets in text a step produced (logs, findings, triage output)
// before anything is published: known token shapes, generic high-entropy
// *_KEY= / *_TOKEN= assignments, and the exact values of the run's secrets,
// also base64- and URL-encoded. Reports never carry the value.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace lw::verify {

struct SecretHit {
  std::string kind;        // "github-token", "aws-access-key", "run-secret:base64", …
  std::size_t offset = 0;  // in the scanned text
  std::size_t length = 0;
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes
};

struct ScanResult {
  std::string masked;           // the text with every hit replaced by "***"
  std::vector<SecretHit> hits;  // in text order, overlapping hits merged
  // The secret substrings, one per line of a multi-line secret, for
  // `::add-mask::` only. Never log or publish these.
  std::vector<std::string> valuesToMaskUnsafe;
  bool clean() const { return hits.empty(); }
};

class SecretScanner {
 public:
  // Exact values shorter than kMinExactSecret are ignored: masking "on" or
  // "1" everywhere would destroy the output without protecting anything.
  static constexpr std::size_t kMinExactSecret = 4;

  explicit SecretScanner(std::vector<std::string> exactSecrets = {});

  ScanResult scanAndMask(std::string_view text) const;

 private:
  struct Needle {
    std::string bytes;
    std::string kind;
  };
  std::vector<Needle> needles_;
};

// "::add-mask::VALUE" with GitHub's workflow-command escaping (%, CR, LF).
std::string addMaskCommand(std::string_view value);

// A SECRET_LEAK finding for a hit in `path` (a log or output name), without
// the value.
Finding secretLeakFinding(const SecretHit& hit, const std::string& step, const std::string& path);

// Masks every finding's message, suggestion and path in place; returns the hits.
std::vector<SecretHit> maskFindings(const SecretScanner& scanner, std::vector<Finding>& findings);

}  // namespace lw::verify
