// A built-in step's own account of what its egress proxy refused it
// (docs/egress.md, "When a connection is denied"): a built-in cannot read
// the proxy's 403 the way a person reads curl's output, so each denied
// connection becomes a notice among the findings it publishes, naming the
// host, the port and what the policy lacks. Pure.
#pragma once

#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/finding.h"

namespace lw::pipeline {

inline constexpr std::string_view kEgressDeniedRule = "egress/denied";

// One notice per denied connection in `egress` (the proxy's records as in
// run.json), reported by `step`; none when nothing was denied.
std::vector<Finding> egressDenialNotes(const boost::json::value& egress, const std::string& step);

}  // namespace lw::pipeline
