// What a reproduction's run means: reproduced, not reproduced, or could not
// run (and why), decided from the facts of the run alone, and how that is
// reported: the triage result's `reproducible`, a label and a comment with
// the trimmed output. Pure; the decision is the ordered table kRules in the
// .cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/finding.h"

namespace lw::agents::reproduce {

enum class Verdict { Reproduced, NotReproduced, CouldNotRun };

std::string_view toString(Verdict v);  // "reproduced", "not reproduced", "could not run"

// What is known once the reproduction was looked for and, maybe, run.
struct RunFacts {
  std::string notRunBecause;  // non-empty: it was never started, this is why
  int exitCode = 0;
  int signal = 0;  // the interpreter's terminating signal, 0 for an exit
  bool timedOut = false;
  bool outputCapped = false;  // printed more than the bound and was stopped
  std::size_t outputBytes = 0;
  int leftRunning = 0;                       // processes it left behind, killed after it ended
  std::string output;                        // stdout, then stderr (bounded)
  std::optional<std::string> expectedError;  // the error the issue reports
  long long wallTimeMs = 0;                  // the bound it ran under
  std::size_t maxOutputBytes = 0;            // the bound it ran under
};

struct Decision {
  Verdict verdict = Verdict::CouldNotRun;
  std::string why;  // one sentence
};

// The first row of the table whose condition holds.
Decision decide(const RunFacts& facts);

// The label proposed for each verdict: reproduced, not-reproduced,
// needs-repro.
std::string labelOf(Verdict v);

// The last `maxLines` lines of `output`, each cut to 300 bytes, and whether
// anything was left out.
std::string trimmedOutput(const std::string& output, std::size_t maxLines);

struct ReportInput {
  Decision decision;
  const RunFacts* facts = nullptr;
  std::string what;  // "the python block under *Steps to reproduce*, on the default branch"
  std::size_t commentLines = 40;
  bool proposeLabel = true;
};

// The triage result: reproducible set for reproduced / not reproduced (left
// unset when it could not run), the verdict's label, and the comment: the
// verdict, why, what was run and the trimmed output in a fenced block.
TriageResult reproduceResult(const ReportInput& in);

}  // namespace lw::agents::reproduce
