// The user-namespace diagnosis lives with the bwrap probe, which needs it
// for its own refusal (sandbox/bwrap/userns_probe.h); the host module's
// qualification uses the same one under its old names.
#pragma once

#include "sandbox/bwrap/userns_probe.h"

namespace lw::host {

using sandbox::bwrap::diagnoseUserns;
using sandbox::bwrap::isUsernsRefusal;
using sandbox::bwrap::readUsernsSysctls;
using sandbox::bwrap::UsernsDiagnosis;
using sandbox::bwrap::UsernsSysctls;

}  // namespace lw::host
