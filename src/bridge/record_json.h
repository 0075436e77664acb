// Guardrail events and call records as JSON for the run record.
#pragma once

#include <boost/json/object.hpp>

#include "bridge/session.h"
#include "guard/event.h"

namespace lw::bridge {

// {"kind":"warn","code":"LOOP_DETECTED","subject":"echo","message":"…"}
boost::json::object toJson(const guard::Event& e);
// {"tool","argsDigest","durationMs","outcome","detail"?,"events":[…]}
boost::json::object toJson(const CallRecord& r);

}  // namespace lw::bridge
