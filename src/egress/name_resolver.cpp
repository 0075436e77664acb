#include "egress/name_resolver.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace lw::egress {

namespace {

namespace asio = boost::asio;

class SystemResolver : public NameResolver {
 public:
  asio::awaitable<std::vector<asio::ip::address>> resolve(std::string host) override {
    asio::ip::tcp::resolver resolver(co_await asio::this_coro::executor);
    boost::system::error_code ec;
    auto results = co_await resolver.async_resolve(host, "", asio::redirect_error(asio::use_awaitable, ec));
    std::vector<asio::ip::address> out;
    if (ec) co_return out;
    for (const auto& entry : results) out.push_back(entry.endpoint().address());
    co_return out;
  }
};

}  // namespace

std::shared_ptr<NameResolver> systemResolver() { return std::make_shared<SystemResolver>(); }

}  // namespace lw::egress
