// What the egress proxy's tests put around it: answers for names (the
// proxy resolves them itself), real clients and servers (curl, openssl)
// run as processes, and a self-signed certificate for a local TLS server.
#pragma once

// Boost.Process v2 on std::filesystem (see src/agents/lint/linter_process.cpp).
#define BOOST_PROCESS_USE_STD_FS 1
#include <boost/optional.hpp>
#include <boost/type_traits/remove_pointer.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/process/v2/environment.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "egress/name_resolver.h"
#include "support/temp_dir.h"

namespace lw::test {

namespace bp = boost::process::v2;

// Each name answers from its list in turn, the last answer repeating, so a
// test can make a name change its answer between lookups.
class ScriptedResolver : public egress::NameResolver {
 public:
  explicit ScriptedResolver(std::map<std::string, std::vector<std::vector<std::string>>> answers)
      : answers_(std::move(answers)) {}
  boost::asio::awaitable<std::vector<boost::asio::ip::address>> resolve(std::string host) override {
    std::vector<boost::asio::ip::address> out;
    std::lock_guard lock(mutex_);
    ++lookups_[host];
    auto it = answers_.find(host);
    if (it == answers_.end() || it->second.empty()) co_return out;
    for (const auto& a : it->second.front()) out.push_back(boost::asio::ip::make_address(a));
    if (it->second.size() > 1) it->second.erase(it->second.begin());
    co_return out;
  }
  int lookups(const std::string& host) {
    std::lock_guard lock(mutex_);
    return lookups_[host];
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<std::vector<std::string>>> answers_;
  std::map<std::string, int> lookups_;
};

struct ToolRun {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a program to its end, its output in files of `dir`.
inline ToolRun runTool(const std::vector<std::string>& argv, const TempDir& dir) {
  boost::asio::io_context ctx;
  const auto out = dir.root / "tool.out";
  const auto err = dir.root / "tool.err";
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  const auto exe = bp::environment::find_executable(argv[0]);
  bp::process proc(ctx, exe, std::vector<std::string>(argv.begin() + 1, argv.end()),
                   bp::process_stdio{nullptr, out, err});
  ToolRun run;
  run.status = proc.wait();
  run.out = slurp(out);
  run.err = slurp(err);
  return run;
}

inline unsigned short freeLoopbackPort() {
  boost::asio::io_context ctx;
  boost::asio::ip::tcp::acceptor a(ctx, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

inline bool accepts(const std::string& address, unsigned short port) {
  boost::asio::io_context ctx;
  boost::asio::ip::tcp::socket s(ctx);
  boost::system::error_code ec;
  s.connect({boost::asio::ip::make_address(address), port}, ec);
  return !ec;
}

// `openssl s_server -www` for `name` on address:port, with a certificate
// made for it; cert() is the CA file a client trusts.
class TlsServer {
 public:
  TlsServer(const TempDir& dir, const std::string& name, const std::string& address = "127.0.0.1")
      : port_(freeLoopbackPort()), cert_((dir.root / "cert.pem").string()) {
    const std::string key = (dir.root / "key.pem").string();
    runTool(
        {"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
         key, "-out", cert_, "-days", "1", "-subj", "/CN=" + name, "-addext", "subjectAltName=DNS:" + name},
        dir);
    server_.emplace(ctx_, bp::environment::find_executable("openssl"),
                    std::vector<std::string>{"s_server", "-accept", address + ":" + std::to_string(port_), "-cert",
                                             cert_, "-key", key, "-www", "-quiet"},
                    bp::process_stdio{nullptr, nullptr, nullptr});
    for (int i = 0; i < 200 && !accepts(address, port_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ~TlsServer() {
    boost::system::error_code ec;
    server_->terminate(ec);
  }
  unsigned short port() const { return port_; }
  const std::string& cert() const { return cert_; }

 private:
  boost::asio::io_context ctx_;
  unsigned short port_;
  std::string cert_;
  std::optional<bp::process> server_;
};

}  // namespace lw::test
