#include "pipeline/step/refusal_blocker.h"

#include "guard/event.h"

namespace lw::pipeline {

std::string refusalBlocker(std::string_view step, const Error& refusal, std::string_view lastSafeState,
                           const std::optional<std::string>& nextAction) {
  const std::string what = "no sandbox backend gives step " + std::string(step) + " what its policy requires (" +
                           std::string(codeName(refusal.code)) + "): " + refusal.message;
  const std::string hint = refusal.hint.empty()
                               ? "run 'loopwright sandbox backends' on this host and relax the step's sandbox "
                                 "policy or use a host that enforces it"
                               : refusal.hint;
  return guard::blockerLine(what, lastSafeState, nextAction ? *nextAction : hint);
}

std::string nextActionFor(const Step& step, std::string_view otherwise) {
  return step.contract.onStop ? *step.contract.onStop : std::string(otherwise);
}

std::string nextActionFor(const Step* step, std::string_view otherwise) {
  return step ? nextActionFor(*step, otherwise) : std::string(otherwise);
}

}  // namespace lw::pipeline
