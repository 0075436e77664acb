// What the egress proxy's sessions share: the step's policy, its limits and
// what has been spent of them, and the record of every connection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "egress/address_policy.h"
#include "egress/connection_record.h"
#include "egress/name_resolver.h"
#include "policy/model/egress_rule.h"

namespace lw::egress {

struct ProxyConfig {
  std::vector<EgressRule> rules;
  std::vector<AllowedNetwork> allowedNetworks;      // non-public networks the host config lists
  std::size_t maxConnections = 256;                 // per step, allowed or not
  std::uint64_t maxBytes = std::uint64_t{4} << 30;  // per step, both directions
  std::chrono::milliseconds headTimeout{10'000};    // to send the request head or the ClientHello
  std::chrono::milliseconds connectTimeout{10'000};
  std::chrono::milliseconds idleTimeout{120'000};
};

struct ProxyState {
  ProxyConfig config;
  std::shared_ptr<NameResolver> resolver;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::atomic<std::size_t> connections{0};
  std::atomic<std::size_t> open{0};  // sessions not yet recorded
  std::atomic<std::uint64_t> bytes{0};

  // False once the step's byte budget is spent: the caller closes.
  bool spend(std::size_t n) { return bytes.fetch_add(n) + n <= config.maxBytes; }
  void add(ConnectionRecord r) {
    std::lock_guard lock(mutex);
    records.push_back(std::move(r));
  }
  std::vector<ConnectionRecord> snapshot() const {
    std::lock_guard lock(mutex);
    return records;
  }

 private:
  mutable std::mutex mutex;
  std::vector<ConnectionRecord> records;
};

}  // namespace lw::egress
