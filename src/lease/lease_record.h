// A lease record on disk (docs/leases.md, "Store layout"): one JSON object
// with a schema version. Anything else is a corrupt record, which every
// operation on it refuses (fail closed): a record nobody can read says
// nothing about who owns the resource.
#pragma once

#include <string>

#include "core/result.h"
#include "lease/lease.h"

namespace lw::lease {

inline constexpr int kRecordSchema = 1;

// The record's JSON text (one line, then a newline).
std::string encodeRecord(const Lease& lease);

// The lease in `text`, read from `file` for `resource`. Fails with
// LEASE_UNAVAILABLE naming `file` when the text is not JSON, is not this
// schema version, has a missing or mistyped field, a phase not named in
// docs/leases.md, or names another resource; the hint says to inspect the
// file and remove it by hand.
Result<Lease> decodeRecord(const std::string& text, const std::string& resource, const std::string& file);

}  // namespace lw::lease
