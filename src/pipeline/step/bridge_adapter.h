// Wires lw::bridge into the pipeline: per run, one lane client and circuit
// breaker per lane (shared by the steps on it); per step, a tool registry of
// the step's grants, a session with its guardrails, and a server on one end
// of a socket pair whose other end the step gets as fd 3.
#pragma once

#include <memory>

#include "core/environment.h"
#include "core/result.h"
#include "pipeline/step/step_runner.h"
#include "policy/model/taskpack.h"

namespace lw::pipeline {

// Builds the lanes of `taskpack` (API keys read from `env` when a lane is
// used; a missing key fails only the steps that call that lane). The
// returned factory keeps the lanes alive.
BridgeFactory makeBridgeFactory(const Taskpack& taskpack, const Environment& env);

}  // namespace lw::pipeline
