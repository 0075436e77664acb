// The socket side of a step's bridge: newline-delimited JSON-RPC read from a
// connected stream socket, answered by a Session, on the bridge's own
// threads. The primary form serves one already-connected descriptor (the
// step gets the other end as fd 3, LOOPWRIGHT_BRIDGE=fd:3, because sandboxes
// in networkMode none refuse new unix sockets); a listening socket path is
// the secondary form.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bridge/session.h"
#include "core/result.h"
#include "core/unique_fd.h"

namespace lw::bridge {

// A connected pair of stream unix sockets, both close-on-exec: first for the
// bridge, second for the step (SpawnRequest::passFd). Fails with IO_ERROR.
Result<std::pair<UniqueFd, UniqueFd>> makeBridgeSocketPair();

class BridgeServer {
 public:
  // Serves `fd` (owned from now on) until the peer closes it or stop().
  static Result<std::unique_ptr<BridgeServer>> serveFd(UniqueFd fd, Session& session);
  // Listens on `path`, created mode 0600, and serves each connection on its
  // own thread. The directory must exist and be private to this user (no
  // group or other access): IO_ERROR otherwise, or when the path is taken
  // or longer than a unix socket path may be. The path is unlinked by stop().
  static Result<std::unique_ptr<BridgeServer>> listen(const std::string& path, Session& session);

  ~BridgeServer();
  BridgeServer(const BridgeServer&) = delete;
  BridgeServer& operator=(const BridgeServer&) = delete;

  // Closes every connection and joins the threads; a tool call in progress
  // is waited for (a model call is bounded by its lane's timeout) and its
  // answer dropped. Idempotent. The session must outlive this call.
  void stop();
  // True once every connection has ended (fd form: the step closed its end).
  bool idle() const;

 private:
  BridgeServer(Session& session, UniqueFd wakeRead, UniqueFd wakeWrite);
  void serveConnection(int fd);
  void acceptLoop(int listenFd);

  Session& session_;
  UniqueFd wakeRead_, wakeWrite_;  // a byte written here ends every poll
  UniqueFd listenFd_;
  std::string path_;
  mutable std::mutex mu_;
  std::vector<std::thread> threads_;
  std::vector<int> connections_;  // open connection fds, closed by their threads
  int active_ = 0;
  bool stopped_ = false;
};

}  // namespace lw::bridge
