// Keeps a lease alive from a thread of its own (docs/leases.md, "Renewal"):
// whatever the holder is doing meanwhile (a cleanup that blocks, a slow
// step), the lease is renewed every ttl/3 and does not expire under it.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "core/result.h"
#include "lease/lease.h"

namespace lw::lease {

class Renewer {
 public:
  // Starts renewing `held` in `store` (which must outlive the renewer) by
  // `ttl` every ttl/3. The first renewal is ttl/3 from now.
  Renewer(Store& store, Lease held, Ttl ttl);
  ~Renewer();  // stop()
  Renewer(const Renewer&) = delete;
  Renewer& operator=(const Renewer&) = delete;

  // The latest renewed lease (same token, later expiry).
  Lease current() const;
  // Whether a renewal was refused; the renewer then stopped renewing. The
  // lease must be treated as gone (a LEASE_LOST or an unreadable record).
  bool lost() const;
  // Why the renewal was refused, when lost().
  std::optional<Error> lostBecause() const;
  // Stops renewing and joins the thread; idempotent.
  void stop();

 private:
  void run();

  Store& store_;
  Ttl ttl_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  Lease lease_;
  std::optional<Error> lost_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lw::lease
