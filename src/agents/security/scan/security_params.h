// builtin/security's `with:` (defaults filled in by the pipeline from
// policy/builtin/builtin_catalog.cpp) as ScanOptions.
#pragma once

#include <boost/json/object.hpp>

#include "agents/security/scan/scan.h"
#include "core/result.h"

namespace lw::agents::security {

// Fails with TASKPACK_INVALID naming the parameter when one has the wrong
// type or value (validate refuses those before a run; this is the backstop).
Result<ScanOptions> readSecurityParams(const boost::json::object& params);

// The repository's owner from the event payload (repository.owner.login),
// empty when the payload does not say.
std::string repositoryOwnerOf(const boost::json::value& event);

}  // namespace lw::agents::security
