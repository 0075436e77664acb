// The run's exit status is its verdict's worst failure, mapped here only.
#include <doctest/doctest.h>

#include "cli/exit_codes.h"

using namespace lw;
using namespace lw::cli;

TEST_CASE("exit status: a run's verdict maps to the status of its worst failure") {
  struct Case {
    github::Conclusion conclusion;
    github::FailureKind worst;
    int status;
  };
  using github::Conclusion;
  using github::FailureKind;
  const Case cases[] = {
      {Conclusion::Success, FailureKind::None, kExitOk},
      {Conclusion::Neutral, FailureKind::None, kExitOk},
      {Conclusion::Failure, FailureKind::Failed, kExitFindings},
      {Conclusion::Failure, FailureKind::Refused, kExitSandbox},
      {Conclusion::Failure, FailureKind::Guardrail, kExitGuardrail},
      {Conclusion::Failure, FailureKind::Verification, kExitVerification},
  };
  for (const Case& c : cases) {
    CAPTURE(toString(c.worst));
    CHECK(exitStatusFor(github::Verdict{c.conclusion, c.worst, {}}) == c.status);
  }
  CHECK(kExitFindings == 1);
  CHECK(kExitSandbox == 3);
  CHECK(kExitGuardrail == 4);
  CHECK(kExitVerification == 5);
}

TEST_CASE("exit status: an invalid eval case is a configuration error, an eval regression exits 8") {
  CHECK(exitCodeFor(ErrorCode::EvalCaseInvalid) == kExitConfig);
  CHECK(exitCodeFor(ErrorCode::EvalRegression) == kExitEvalRegression);
  CHECK(kExitEvalRegression == 8);
  CHECK(codeName(ErrorCode::EvalRegression) == "EVAL_REGRESSION");
}
