// New or changed dependencies in manifests and lock files: one
// security/new-dependency notice per dependency whose declaration the pull
// request added or changed, naming the package and its version.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/security/rules.h"
#include "agents/security/text.h"

namespace lw::agents::security {

// A dependency declared in a file: `anchors` are the lines that declare it,
// the version's line first (a version bump adds only that one).
struct Dependency {
  std::string name;
  std::string version;  // as written: "^1.2.0", "==2.31.0", "v1.9.1"; may be empty
  std::vector<int> anchors;
};

// The ecosystem of a manifest or lock file by its name ("npm", "pip", …),
// empty for any other file.
std::string_view dependencyEcosystem(std::string_view path);

// Every dependency `path` declares (empty for a file that is not a manifest).
std::vector<Dependency> parseDependencies(std::string_view path, const FileLines& lines);

std::vector<RuleHit> dependencyHits(std::string_view path, const FileLines& lines);

// One parser per format (deps_*.cpp); each reads the file line by line, the
// way these files are written, so that a declaration keeps its line.
std::vector<Dependency> npmManifestDeps(const FileLines& lines);
std::vector<Dependency> jsonLockDeps(const FileLines& lines);  // package-lock.json, Pipfile.lock
std::vector<Dependency> yarnLockDeps(const FileLines& lines);
std::vector<Dependency> pnpmLockDeps(const FileLines& lines);
std::vector<Dependency> requirementsDeps(const FileLines& lines);
std::vector<Dependency> tomlManifestDeps(const FileLines& lines);  // pyproject.toml, Pipfile, Cargo.toml
std::vector<Dependency> tomlLockDeps(const FileLines& lines);      // poetry.lock, Cargo.lock
std::vector<Dependency> goModDeps(const FileLines& lines);
std::vector<Dependency> goSumDeps(const FileLines& lines);
std::vector<Dependency> pomDeps(const FileLines& lines);
std::vector<Dependency> gradleDeps(const FileLines& lines);
std::vector<Dependency> gradleLockDeps(const FileLines& lines);
std::vector<Dependency> gemfileDeps(const FileLines& lines);
std::vector<Dependency> gemfileLockDeps(const FileLines& lines);

// Shared by the parsers.
// The contents of each "…" (or '…') string on the line, in order.
std::vector<std::string_view> quotedStrings(std::string_view line);
// "requests[socks]>=2.31; python_version>'3.8'" -> {requests, >=2.31}.
Dependency pep508(std::string_view requirement, int line);

}  // namespace lw::agents::security
