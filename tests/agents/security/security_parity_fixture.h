// zizmor's and poutine's public test corpora (tests/data/security/corpus,
// vendored by scripts/security-corpus.py): their files as a pull request
// that adds every line, what each tool expects to find there, and which
// loopwright rules answer each of their audits (corpus/mapping).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agents/security/changed_file.h"

namespace lw::test {

struct ReferenceFinding {
  std::string path;  // in the corpus ("template-injection/foo.yml")
  int line = 0;      // 0: the file as a whole
  std::string audit;
  std::string persona;   // zizmor: regular, pedantic or auditor; poutine: regular
  bool jobOnly = false;  // poutine names the job but no step: anywhere in the job is its place
};

struct ReferenceCorpus {
  std::string name;  // the folder under tests/data/security/corpus: "zizmor", "gha-hazmat", "poutine"
  std::string tool;  // whose audits the findings are: "zizmor", "poutine"
  // Each corpus file under the path loopwright reads it at (zizmor's files
  // are named as workflows, not where they sit in its tree).
  std::vector<agents::security::ChangedFile> files;
  std::map<std::string, std::string> scannedAs;  // corpus path -> files[].path
  std::vector<ReferenceFinding> findings;
  std::set<std::string> clean;      // corpus paths the tool found nothing in
  std::set<std::string> noDefault;  // zizmor: no default-persona run read these
};

// The corpora: zizmor's test-data, gha-hazmat (the repository zizmor's
// end-to-end test runs on), poutine's testdata.
std::vector<std::string> referenceCorpusNames();

// corpus/<name>/expected with the files of its data folder.
ReferenceCorpus loadReferenceCorpus(const std::string& name);

struct AuditMapping {
  std::string tool, audit;
  std::optional<int> floorPercent;  // nullopt: an online audit, not measured
  std::vector<std::string> rules;   // empty: no loopwright rule yet
  bool wholeFile = false;           // the audit is about the workflow: a finding anywhere in it answers
};

std::vector<AuditMapping> loadAuditMapping();

}  // namespace lw::test
