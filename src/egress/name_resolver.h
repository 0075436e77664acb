// How the egress proxy turns an allowed name into addresses. The proxy
// resolves once per connection and connects only to what that lookup
// returned, so a name that changes its answer (DNS rebinding) cannot move
// a checked connection elsewhere. Tests substitute the answers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/address.hpp>

namespace lw::egress {

class NameResolver {
 public:
  virtual ~NameResolver() = default;
  // The addresses of `host`; empty when it has none (or the lookup failed).
  virtual boost::asio::awaitable<std::vector<boost::asio::ip::address>> resolve(std::string host) = 0;
};

// getaddrinfo through Asio's resolver.
std::shared_ptr<NameResolver> systemResolver();

}  // namespace lw::egress
