// JSON forms of the effective policy, used by `explain --json` and run.json.
#pragma once

#include <boost/json/value.hpp>

#include "policy/model/effective_policy.h"

namespace lw {

boost::json::value toJson(const EffectiveSandbox& sandbox);
// {"on": [...], "to": "L2" or null}.
boost::json::value toJson(const EscalateSpec& escalate);
boost::json::value toJson(const EffectiveStep& step);
boost::json::value toJson(const Floor& floor);
// An author step's task contract as written: each key, null when omitted.
boost::json::value toJson(const TaskContract& contract);

}  // namespace lw
