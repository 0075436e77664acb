// The corpus of tests/data/security/cases: one folder per case holding the
// files of a pull request (repository-relative) and `expected`, which says
// the findings every rule must produce and, per file, which lines the pull
// request added (all of them unless an `added <path> <ranges>` line says)
// and, for a rule outside the default persona, `persona <name>`: the
// persona the case is scanned with.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "agents/security/changed_file.h"

namespace lw::test {

struct SecurityCase {
  std::string name;
  std::vector<agents::security::ChangedFile> files;
  std::set<std::string> expected;  // "path:line rule"
  std::string persona = "default";
};

std::filesystem::path securityCorpusDir();
std::vector<SecurityCase> loadSecurityCorpus();

}  // namespace lw::test
