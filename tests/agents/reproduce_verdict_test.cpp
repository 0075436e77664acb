#include <doctest/doctest.h>

#include <csignal>

#include "agents/reproduce/repro_verdict.h"

using namespace lw::agents::reproduce;

namespace {

RunFacts ran(int exitCode, const std::string& output = "", std::optional<std::string> expected = std::nullopt) {
  RunFacts f;
  f.exitCode = exitCode;
  f.output = output;
  f.expectedError = std::move(expected);
  f.wallTimeMs = 5000;
  f.maxOutputBytes = 1024;
  return f;
}

}  // namespace

TEST_CASE("reproduce verdict: the decision table, row by row") {
  struct Row {
    const char* name;
    RunFacts facts;
    Verdict verdict;
    const char* why;
  };
  RunFacts notRun = ran(0);
  notRun.notRunBecause = "`node` is not installed in the step's sandbox (PATH /usr/bin)";
  RunFacts timedOut = ran(124, "ValueError: bad", "ValueError: bad");
  timedOut.timedOut = true;
  RunFacts capped = ran(137, "ValueError: bad", "ValueError: bad");
  capped.outputCapped = true;
  RunFacts oom = ran(0);
  oom.signal = SIGKILL;
  RunFacts segv = ran(0);
  segv.signal = SIGSEGV;
  const Row rows[] = {
      {"not run", notRun, Verdict::CouldNotRun, "`node` is not installed in the step's sandbox (PATH /usr/bin)"},
      {"timed out, even with the error seen", timedOut, Verdict::CouldNotRun,
       "it did not finish within its wall time of 5000 ms and was killed"},
      {"output cap", capped, Verdict::CouldNotRun, "it printed more than its bound of 1024 bytes and was killed"},
      {"killed by a limit", oom, Verdict::CouldNotRun,
       "it was killed by signal 9 (a limit of the step: memory, CPU or file size)"},
      {"error seen on a clean exit", ran(0, "x\nValueError: bad width\n", "ValueError: bad width"), Verdict::Reproduced,
       "the reported error `ValueError: bad width` was seen in its output"},
      {"crashed", segv, Verdict::Reproduced, "it was ended by signal 11"},
      {"non-zero exit", ran(3), Verdict::Reproduced, "it exited with status 3"},
      {"clean exit, error not seen", ran(0, "fine\n", "ValueError: bad width"), Verdict::NotReproduced,
       "it exited with status 0 and the reported error was not seen"},
      {"clean exit, no error reported", ran(0), Verdict::NotReproduced, "it exited with status 0"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const Decision d = decide(row.facts);
    CHECK(d.verdict == row.verdict);
    CHECK(d.why == row.why);
  }
}

TEST_CASE("reproduce verdict: labels and reproducible follow the verdict") {
  CHECK(labelOf(Verdict::Reproduced) == "reproduced");
  CHECK(labelOf(Verdict::NotReproduced) == "not-reproduced");
  CHECK(labelOf(Verdict::CouldNotRun) == "needs-repro");
  RunFacts f = ran(1, "boom\n");
  const auto yes = reproduceResult({decide(f), &f, "the shell block", 40, true});
  CHECK(yes.reproducible == true);
  CHECK(yes.labels == std::vector<std::string>{"reproduced"});
  RunFacts none;
  none.notRunBecause = "the issue has no fenced sh, bash, python or javascript block to run";
  const auto unknown = reproduceResult({decide(none), &none, "", 40, false});
  CHECK_FALSE(unknown.reproducible);
  CHECK(unknown.labels.empty());
  CHECK(unknown.comment ==
        "**Reproduction:** could not run: the issue has no fenced sh, bash, python or javascript block to run.\n");
}

TEST_CASE("reproduce verdict: the comment holds the end of the output in a fence it cannot close") {
  RunFacts f = ran(1, "line 1\n```\n@someone <img src=x>\nline 4\n");
  f.leftRunning = 3;
  const auto r =
      reproduceResult({decide(f), &f, "the shell block under *Steps to reproduce*, on the default branch", 2, true});
  CHECK(r.comment ==
        "**Reproduction:** reproduced: it exited with status 1. It left 3 process(es) running, which were killed.\n\n"
        "Ran the shell block under *Steps to reproduce*, on the default branch.\n\n"
        "Its output (the end):\n\n```text\n… (2 earlier lines left out)\n@someone <img src=x>\nline 4\n```\n");
  RunFacts fenced = ran(1, "```\n~~~~\n````` x\n");
  CHECK(reproduceResult({decide(fenced), &fenced, "", 40, true}).comment.find("\n``````text\n```\n") !=
        std::string::npos);
}

TEST_CASE("reproduce verdict: trimmed output keeps the last lines, each bounded") {
  CHECK(trimmedOutput("a\nb\nc\n", 5) == "a\nb\nc\n");
  CHECK(trimmedOutput("a\nb\nc", 1) == "… (2 earlier lines left out)\nc\n");
  CHECK(trimmedOutput(std::string(1000, 'x'), 1) == std::string(300, 'x') + "…\n");
}
