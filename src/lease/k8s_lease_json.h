// A lease as a Kubernetes coordination.k8s.io/v1 Lease object
// (docs/leases.md, "Stores: local, etcd and Kubernetes"), pure: the record
// out as the object the store writes, the object in as the record it holds.
//
//   metadata.name         <namePrefix><resource, lower-cased, [^a-z0-9] -> '-'>-<FNV-1a 64, hex>
//   metadata.labels       app.kubernetes.io/managed-by: loopwright (what `lease list` selects)
//   metadata.annotations  loopwright.dev/resource (the exact name), loopwright.dev/phase,
//                         loopwright.dev/fencing-token (decimal; grows with every claim)
//   spec.holderIdentity   the holder            (active and tearing down only)
//   spec.acquireTime      when it was claimed   (MicroTime)
//   spec.renewTime        expiry - leaseDurationSeconds (MicroTime)
//   spec.leaseDurationSeconds  whole seconds from the write to the expiry, at least 1
//
// so that Kubernetes' own reading (renewTime + leaseDurationSeconds) gives
// the expiry to the millisecond. The exact resource sits in an annotation
// because an object name cannot hold upper case or '_': two resources whose
// names map to one object are refused (the annotation names the other), never
// shared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "core/result.h"
#include "lease/lease.h"

namespace lw::lease::k8s {

inline constexpr const char* kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr const char* kResourceAnnotation = "loopwright.dev/resource";
inline constexpr const char* kPhaseAnnotation = "loopwright.dev/phase";
inline constexpr const char* kTokenAnnotation = "loopwright.dev/fencing-token";

// The object name of `resource` (a valid resource name) under `namePrefix`
// (policy/model/host_config.h: kubeNamePrefixProblem).
std::string objectName(const std::string& namePrefix, const std::string& resource);

// "2024-05-01T12:00:00.250000Z": meta/v1 MicroTime (RFC3339Micro) for a
// wall-clock time in milliseconds.
std::string formatMicroTime(std::int64_t ms);
// The milliseconds of a MicroTime or Time in UTC ("Z"), sub-millisecond
// parts rounded up (a later expiry is the safe side); nullopt otherwise.
std::optional<std::int64_t> parseMicroTime(const std::string& text);

// The Lease object for `lease` written at `nowMs` in `ns`, without a
// resourceVersion (the store adds the one it read).
boost::json::object encodeLease(const Lease& lease, const std::string& objectName, const std::string& ns,
                                std::int64_t nowMs);

// The lease an object holds, for `resource`. Fails with LEASE_UNAVAILABLE,
// naming `where`, when an annotation is missing or malformed, the resource
// annotation names another resource, the phase is unknown, or an active or
// tearing-down lease lacks its holder, times or duration.
Result<Lease> decodeLease(const boost::json::object& object, const std::string& resource, const std::string& where);

// The resource an object's annotation names, or "" when it has none.
std::string resourceOf(const boost::json::object& object);

}  // namespace lw::lease::k8s
