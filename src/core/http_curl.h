// The project's one libcurl client: http::Transport under an http::Policy
// (core/http_policy.h), over TCP or a unix socket. One easy handle per
// exchange, so that a Docker kill can be sent from another thread while a
// wait is blocked in its own exchange; libcurl is loaded on first use
// (core/libcurl.h), so a process that never sends a request never loads it.
#pragma once

#include "core/http.h"
#include "core/http_policy.h"

namespace lw::http {

class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(Policy policy);
  // Redirects are followed here, not by libcurl, so that each hop is checked
  // against the policy before anything is sent to it. Failure texts are
  // libcurl's ("Couldn't connect to server") or the policy's refusal.
  Response send(const Request& request) override;
  const Policy& policy() const { return policy_; }

 private:
  Policy policy_;
};

}  // namespace lw::http
