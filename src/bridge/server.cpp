#include "bridge/server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "bridge/jsonrpc.h"
#include "bridge/line_reader.h"

namespace lw::bridge {

namespace {

Error ioError(const std::string& what, int err, std::string hint = {}) {
  return makeError(ErrorCode::IoError, what + ": " + std::strerror(err), std::move(hint));
}

// Writes all of `data`, waiting for the socket as needed; false when the
// peer went away or the wake pipe fired (stop()).
bool writeAll(int fd, int wakeFd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd fds[2] = {{fd, POLLOUT, 0}, {wakeFd, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0 && errno != EINTR) return false;
      if (fds[1].revents != 0) return false;
      if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) return false;
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace

Result<std::pair<UniqueFd, UniqueFd>> makeBridgeSocketPair() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return ioError("socketpair for the step's bridge", errno);
  return std::make_pair(UniqueFd(sv[0]), UniqueFd(sv[1]));
}

BridgeServer::BridgeServer(Session& session, UniqueFd wakeRead, UniqueFd wakeWrite)
    : session_(session), wakeRead_(std::move(wakeRead)), wakeWrite_(std::move(wakeWrite)) {}

namespace {

Result<std::pair<UniqueFd, UniqueFd>> wakePipe() {
  int p[2];
  if (::pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) return ioError("pipe for the bridge", errno);
  return std::make_pair(UniqueFd(p[0]), UniqueFd(p[1]));
}

}  // namespace

Result<std::unique_ptr<BridgeServer>> BridgeServer::serveFd(UniqueFd fd, Session& session) {
  auto wake = wakePipe();
  if (!wake) return wake.error();
  std::unique_ptr<BridgeServer> s(new BridgeServer(session, std::move(wake->first), std::move(wake->second)));
  int raw = fd.release();
  std::lock_guard<std::mutex> lock(s->mu_);
  s->connections_.push_back(raw);
  ++s->active_;
  s->threads_.emplace_back([srv = s.get(), raw] { srv->serveConnection(raw); });
  return s;
}

Result<std::unique_ptr<BridgeServer>> BridgeServer::listen(const std::string& path, Session& session) {
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof(addr.sun_path))
    return makeError(ErrorCode::IoError,
                     "bridge socket path '" + path + "' is empty or longer than " +
                         std::to_string(sizeof(addr.sun_path) - 1) + " bytes",
                     "use a shorter private directory (e.g. under /run or /tmp)", path);
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return ioError("bridge socket directory " + dir, errno);
  if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)
    return makeError(ErrorCode::IoError, "bridge socket directory " + dir + " is not private to this user",
                     "create it with mode 0700 (another user could otherwise reach the step's tools)", dir);
  auto wake = wakePipe();
  if (!wake) return wake.error();
  UniqueFd sock(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!sock) return ioError("socket for the bridge", errno);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  if (::bind(sock.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
    return ioError("bind " + path, errno, "remove a stale socket or pick another path");
  // The private directory is what keeps others out between bind and chmod.
  if (::chmod(path.c_str(), 0600) != 0 || ::listen(sock.get(), 8) != 0) {
    int err = errno;
    ::unlink(path.c_str());
    return ioError("listen on " + path, err);
  }
  std::unique_ptr<BridgeServer> s(new BridgeServer(session, std::move(wake->first), std::move(wake->second)));
  s->path_ = path;
  s->listenFd_ = std::move(sock);
  int lfd = s->listenFd_.get();
  std::lock_guard<std::mutex> lock(s->mu_);
  s->threads_.emplace_back([srv = s.get(), lfd] { srv->acceptLoop(lfd); });
  return s;
}

BridgeServer::~BridgeServer() { stop(); }

void BridgeServer::acceptLoop(int listenFd) {
  for (;;) {
    pollfd fds[2] = {{listenFd, POLLIN, 0}, {wakeRead_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    int c = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) {
      ::close(c);
      return;
    }
    connections_.push_back(c);
    ++active_;
    threads_.emplace_back([this, c] { serveConnection(c); });
  }
}

void BridgeServer::serveConnection(int fd) {
  LineReader reader(kMaxMessageBytes);
  std::string chunk(64 * 1024, '\0');
  bool alive = true;
  auto answer = [&](const std::string& line) {
    if (alive) alive = writeAll(fd, wakeRead_.get(), line + "\n");
  };
  while (alive) {
    pollfd fds[2] = {{fd, POLLIN, 0}, {wakeRead_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents != 0) break;
    ssize_t n = ::recv(fd, chunk.data(), chunk.size(), MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n <= 0) break;
    reader.feed(
        std::string_view(chunk.data(), static_cast<std::size_t>(n)),
        [&](std::string_view line) {
          if (auto reply = session_.handle(line)) answer(*reply);
        },
        [&](std::size_t size) { answer(session_.tooLarge(size)); });
  }
  // An unterminated last message is not a message (MCP frames by newline).
  std::lock_guard<std::mutex> lock(mu_);
  ::close(fd);
  std::erase(connections_, fd);
  --active_;
}

void BridgeServer::stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopped_) {
      stopped_ = true;
      char b = 1;
      (void)!::write(wakeWrite_.get(), &b, 1);
    }
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
  // Threads started by accept after the swap see stopped_ and never start.
  if (!path_.empty()) {
    ::unlink(path_.c_str());
    path_.clear();
  }
  listenFd_.reset();
}

bool BridgeServer::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return active_ == 0;
}

}  // namespace lw::bridge
