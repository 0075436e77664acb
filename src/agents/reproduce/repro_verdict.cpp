#include "agents/reproduce/repro_verdict.h"

#include <csignal>
#include <functional>
#include <sstream>
#include <vector>

#include "core/github_reads.h"
#include "github/markdown/code_fence.h"

namespace lw::agents::reproduce {

namespace {

constexpr std::size_t kMaxLineBytes = 300;

// A signal that stands for a limit of the step (the memory cgroup's OOM
// kill, RLIMIT_CPU, RLIMIT_FSIZE) rather than the crash an issue reports.
bool isLimitSignal(int signal) { return signal == SIGKILL || signal == SIGXCPU || signal == SIGXFSZ; }

bool errorSeen(const RunFacts& f) {
  return f.expectedError && !f.expectedError->empty() && f.output.find(*f.expectedError) != std::string::npos;
}

struct Rule {
  Verdict verdict;
  std::function<bool(const RunFacts&)> holds;
  std::function<std::string(const RunFacts&)> why;
};

// In order: the first that holds decides. A run stopped by a bound says
// nothing about the bug, whatever it printed before; a clean exit counts as
// "not reproduced" only when nothing else was seen.
const std::vector<Rule>& rules() {
  static const std::vector<Rule> kRules = {
      {Verdict::CouldNotRun, [](const RunFacts& f) { return !f.notRunBecause.empty(); },
       [](const RunFacts& f) { return f.notRunBecause; }},
      {Verdict::CouldNotRun, [](const RunFacts& f) { return f.timedOut; },
       [](const RunFacts& f) {
         return "it did not finish within its wall time of " + std::to_string(f.wallTimeMs) + " ms and was killed";
       }},
      {Verdict::CouldNotRun, [](const RunFacts& f) { return f.outputCapped; },
       [](const RunFacts& f) {
         return "it printed more than its bound of " + std::to_string(f.maxOutputBytes) + " bytes and was killed";
       }},
      {Verdict::CouldNotRun, [](const RunFacts& f) { return isLimitSignal(f.signal); },
       [](const RunFacts& f) {
         return "it was killed by signal " + std::to_string(f.signal) +
                " (a limit of the step: memory, CPU or file size)";
       }},
      {Verdict::Reproduced, errorSeen,
       [](const RunFacts& f) { return "the reported error `" + *f.expectedError + "` was seen in its output"; }},
      {Verdict::Reproduced, [](const RunFacts& f) { return f.signal != 0; },
       [](const RunFacts& f) { return "it was ended by signal " + std::to_string(f.signal); }},
      {Verdict::Reproduced, [](const RunFacts& f) { return f.exitCode != 0; },
       [](const RunFacts& f) { return "it exited with status " + std::to_string(f.exitCode); }},
      {Verdict::NotReproduced, [](const RunFacts&) { return true; },
       [](const RunFacts& f) {
         return std::string("it exited with status 0") +
                (f.expectedError ? " and the reported error was not seen" : "");
       }},
  };
  return kRules;
}

std::string cutLine(const std::string& line) {
  return line.size() <= kMaxLineBytes ? line : clipUtf8(line, kMaxLineBytes) + "…";
}

std::string leftRunningNote(const RunFacts& f) {
  if (f.leftRunning <= 0) return {};
  return " It left " + std::to_string(f.leftRunning) + " process(es) running, which were killed.";
}

}  // namespace

std::string_view toString(Verdict v) {
  switch (v) {
    case Verdict::Reproduced: return "reproduced";
    case Verdict::NotReproduced: return "not reproduced";
    case Verdict::CouldNotRun: return "could not run";
  }
  return "could not run";
}

Decision decide(const RunFacts& facts) {
  for (const Rule& r : rules())
    if (r.holds(facts)) return {r.verdict, r.why(facts)};
  return {Verdict::CouldNotRun, "no rule applied"};
}

std::string labelOf(Verdict v) {
  switch (v) {
    case Verdict::Reproduced: return "reproduced";
    case Verdict::NotReproduced: return "not-reproduced";
    case Verdict::CouldNotRun: return "needs-repro";
  }
  return "needs-repro";
}

std::string trimmedOutput(const std::string& output, std::size_t maxLines) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) lines.push_back(cutLine(line));
  const std::size_t first = lines.size() > maxLines ? lines.size() - maxLines : 0;
  std::string out = first > 0 ? "… (" + std::to_string(first) + " earlier lines left out)\n" : "";
  for (std::size_t i = first; i < lines.size(); ++i) out += lines[i] + "\n";
  return out;
}

TriageResult reproduceResult(const ReportInput& in) {
  TriageResult r;
  const Verdict v = in.decision.verdict;
  if (v != Verdict::CouldNotRun) r.reproducible = v == Verdict::Reproduced;
  if (in.proposeLabel) r.labels.push_back(labelOf(v));
  std::string c = "**Reproduction:** " + std::string(toString(v)) + ": " + in.decision.why + ".";
  if (in.facts) c += leftRunningNote(*in.facts);
  c += "\n";
  if (!in.what.empty()) c += "\nRan " + in.what + ".\n";
  if (in.facts && in.facts->notRunBecause.empty()) {
    const std::string shown = trimmedOutput(in.facts->output, in.commentLines);
    const std::string fence = github::codeFenceFor(shown);
    c += "\nIts output" +
         std::string(shown.empty() ? " was empty.\n" : " (the end):\n\n" + fence + "text\n" + shown + fence + "\n");
  }
  r.comment = std::move(c);
  return r;
}

}  // namespace lw::agents::reproduce
