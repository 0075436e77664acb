// A qualification as a report: the JSON object (`qualify --json`, with
// schemaVersion; also what the cache stores), and from that object a table
// for humans and a Markdown summary (GITHUB_STEP_SUMMARY). The renderers
// read the JSON so that a cached report prints exactly like a fresh one.
#pragma once

#include <string>

#include <boost/json/object.hpp>

#include "core/error.h"
#include "host/qualification.h"

namespace lw::host {

boost::json::object toJson(const Qualification& q);

// The "host" member of the report (re-observed on a cache hit: disks change).
boost::json::object toJson(const HostFacts& facts);

// Whether the report says the floor is satisfied.
bool floorSatisfied(const boost::json::object& report);

// The table: host facts, then per backend each capability and network mode
// with claimed and observed side by side, then the floor verdict.
std::string renderTable(const boost::json::object& report);

std::string renderMarkdown(const boost::json::object& report);

// SANDBOX_CAPABILITY_INSUFFICIENT (exit 3) naming the report's floor.missing;
// SANDBOX_BACKEND_UNAVAILABLE (exit 3) when the floor asks for a level no
// backend of this version gives, with the floor change as its hint.
Error floorError(const boost::json::object& report);

}  // namespace lw::host
