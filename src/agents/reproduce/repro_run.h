// Runs a reproduction inside the step's own sandbox: the block written to a
// file in the step's out dir and run by its interpreter in the tree it
// targets, with a wall time, an output bound, a minimal environment and no
// descriptor but its pipes (not the bridge), its whole process tree killed
// when it ends or a bound is hit (sandbox/process/spawn.h). Whatever it
// leaves in the out dir is removed before the agent writes its result.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>

#include "agents/reproduce/repro_extract.h"
#include "agents/reproduce/repro_verdict.h"

namespace lw::agents::reproduce {

struct RunRequest {
  Language language = Language::Shell;
  std::string script;
  std::filesystem::path tree;     // the working directory it runs in
  std::filesystem::path scratch;  // where its file is written (inside the out dir)
  std::string pathVariable;       // the step's PATH, searched for the interpreter
  long long wallTimeMs = 60000;
  std::size_t maxOutputBytes = 65536;
};

// The facts of the run. An interpreter that is not installed, or a run that
// cannot be started, is notRunBecause, never an error: it is an outcome.
RunFacts runReproduction(const RunRequest& request, std::ostream& log);

// Names of the entries of `dir` now (for removeAddedEntries).
std::vector<std::string> entriesOf(const std::filesystem::path& dir);

// Irreversible: removes every entry of `dir` not in `before`,
// making directories writable first (a reproduction may chmod its own).
// The number removed.
int removeAddedEntries(const std::filesystem::path& dir, const std::vector<std::string>& before);
void removeTree(const std::filesystem::path& path);

}  // namespace lw::agents::reproduce
