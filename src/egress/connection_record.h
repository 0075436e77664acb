// One connection a step asked the egress proxy for, allowed or denied: what
// the step record and the run summary show.
#pragma once

#include <cstdint>
#include <string>

#include <boost/json/value.hpp>

namespace lw::egress {

struct ConnectionRecord {
  std::string host;  // as the client named it
  int port = 0;
  bool tunnel = false;  // CONNECT (TLS) or one plain-HTTP request
  bool allowed = false;
  std::string reason;               // the entry that allowed it, or why it was denied
  std::string address;              // the address connected to; empty when none
  std::uint64_t bytesSent = 0;      // step -> destination
  std::uint64_t bytesReceived = 0;  // destination -> step
  std::int64_t startedMs = 0;       // since the proxy started
  std::int64_t durationMs = 0;
};

boost::json::value toJson(const ConnectionRecord& r);

}  // namespace lw::egress
