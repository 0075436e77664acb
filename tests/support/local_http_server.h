// The HTTP side of the fakes of remote services (GitHub, model providers):
// an HTTP/1.1 server on 127.0.0.1 at an ephemeral port, a thread per
// connection, Boost.Beast. It parses each request and writes what the
// handler answers; what the service does is the handler's.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace lw::test {

class LocalHttpServer {
 public:
  struct Request {
    std::string method;
    std::string target;                          // path and query
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
  };
  // A connection upgraded to WebSocket, as a handler sees it: binary
  // messages, read and written from the handler's one thread.
  class WebSocket {
   public:
    virtual ~WebSocket() = default;
    virtual std::optional<std::string> read() = 0;  // nullopt: closed
    virtual bool write(const std::string& message) = 0;
    virtual void close() = 0;
  };
  struct Response {
    int status = 200;
    std::map<std::string, std::string> headers;
    std::string body;
    // Set with status 101: the connection becomes a WebSocket (the
    // Sec-WebSocket-Protocol header names the subprotocol accepted) and this
    // runs it; the connection closes when it returns.
    std::function<void(WebSocket&)> upgrade = {};
  };
  // nullopt: the connection is closed without an answer. Called on the
  // connection's thread; it may block until `onStop` releases it.
  using Handler = std::function<std::optional<Response>(const Request&)>;

  // `serverName` goes in every Server header; `onStop` runs first when the
  // server goes away, to release handlers that are blocked.
  LocalHttpServer(std::string serverName, Handler handler, std::function<void()> onStop = {});

  // PEM files of a TLS server: its certificate chain and private key.
  struct Tls {
    std::string certificateChainFile;
    std::string privateKeyFile;
  };
  // The same over TLS (https): every connection handshakes first; one that
  // fails to (a client that does not trust the certificate) is closed.
  LocalHttpServer(std::string serverName, Handler handler, Tls tls);
  ~LocalHttpServer();
  LocalHttpServer(const LocalHttpServer&) = delete;
  LocalHttpServer& operator=(const LocalHttpServer&) = delete;

  unsigned short port() const;

  struct State;

 private:
  void acceptLoop();
  void serve(void* socket);
  template <class Stream>
  void exchange(Stream& stream);

  std::unique_ptr<State> state_;
  std::thread acceptor_;
};

}  // namespace lw::test
