#include "bridge/stdio_relay.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "bridge/jsonrpc.h"

namespace lw::bridge {

namespace {

Error ioError(const std::string& what) { return makeError(ErrorCode::IoError, what + ": " + std::strerror(errno)); }

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

Result<UniqueFd> connectBridge(const Environment& env) {
  auto spec = env.get("LOOPWRIGHT_BRIDGE");
  if (!spec || spec->empty())
    return makeError(ErrorCode::UsageError, "LOOPWRIGHT_BRIDGE is not set",
                     "run this inside a loopwright step: the pipeline sets it to fd:N or a socket path");
  if (spec->starts_with("fd:")) {
    int fd = -1;
    const char* b = spec->data() + 3;
    const char* e = spec->data() + spec->size();
    auto [end, ec] = std::from_chars(b, e, fd);
    if (ec != std::errc() || end != e || fd < 0)
      return makeError(ErrorCode::UsageError, "LOOPWRIGHT_BRIDGE='" + *spec + "' is not fd:N",
                       "the pipeline sets fd:3");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
      return makeError(ErrorCode::IoError,
                       "LOOPWRIGHT_BRIDGE names fd " + std::to_string(fd) + ", which is not an open socket",
                       "the bridge descriptor is inherited from the step; do not close it");
    // Duplicated so that closing ours never closes the step's.
    int dup = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (dup < 0) return ioError("dup of the bridge descriptor");
    return UniqueFd(dup);
  }
  sockaddr_un addr{};
  if (spec->size() >= sizeof(addr.sun_path))
    return makeError(ErrorCode::UsageError, "LOOPWRIGHT_BRIDGE path is too long for a unix socket", "", *spec);
  UniqueFd s(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!s) return ioError("socket");
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, spec->c_str(), spec->size() + 1);
  if (::connect(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    Error e = ioError("connect to the bridge at " + *spec);
    e.hint = "the bridge lives as long as its step; is this the step's own socket?";
    return e;
  }
  return s;
}

namespace {

// The bridge going away (the step is being stopped) ends the relay cleanly
// however the kernel reports it: EOF, ECONNRESET when it closed with our
// request unread, or EPIPE on our next write.
Status bridgeFailure(const std::string& what) {
  if (errno == ECONNRESET || errno == EPIPE) return Ok{};
  return ioError(what);
}

// Stdin's lines on their way to the bridge, and how many answers the bridge
// still owes for them. A line past the message limit cannot be read whole by
// the bridge, which answers it once: it is streamed through as it comes.
class StdinLines {
 public:
  explicit StdinLines(int sock) : sock_(sock) {}

  long owed() const { return owed_; }
  void answered(std::string_view got) {
    for (char c : got) owed_ -= c == '\n';
  }

  // Each false when the bridge could not be written to (errno says why).
  bool feed(std::string_view got) {
    while (!got.empty()) {
      std::size_t nl = got.find('\n');
      std::string_view part = got.substr(0, nl);
      if (!oversize_ && line_.size() + part.size() > kMaxMessageBytes) {
        oversize_ = true;
        ++owed_;
        if (!writeAll(sock_, line_)) return false;
        line_.clear();
      }
      if (oversize_) {
        if (!writeAll(sock_, part)) return false;
      } else {
        line_.append(part);
      }
      if (nl == std::string_view::npos) break;
      if (!sendLine()) return false;
      got.remove_prefix(nl + 1);
    }
    return true;
  }
  // Stdin ended: a last line without its newline is sent all the same.
  bool finish() { return (line_.empty() && !oversize_) || sendLine(); }

 private:
  bool sendLine() {
    if (!oversize_ && expectsReply(line_)) ++owed_;
    oversize_ = false;
    bool ok = writeAll(sock_, line_) && writeAll(sock_, "\n");
    line_.clear();
    return ok;
  }

  int sock_;
  std::string line_;       // the line being read, up to the message limit
  bool oversize_ = false;  // the current line passed the limit: streamed through
  long owed_ = 0;          // answers the bridge still owes
};

}  // namespace

Status relayStdio(int in, int out, int sock) {
  StdinLines lines(sock);
  bool inOpen = true;
  std::string buf(64 * 1024, '\0');
  for (;;) {
    if (!inOpen && lines.owed() <= 0) return Ok{};
    pollfd fds[2] = {{sock, POLLIN, 0}, {inOpen ? in : -1, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return ioError("poll");
    }
    if (fds[0].revents != 0) {
      ssize_t n = ::recv(sock, buf.data(), buf.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return bridgeFailure("read from the bridge");
      if (n == 0) return Ok{};  // the bridge ended (the step is being stopped)
      std::string_view got(buf.data(), static_cast<std::size_t>(n));
      lines.answered(got);
      if (!writeAll(out, got)) return ioError("write to stdout");
    }
    if (inOpen && fds[1].revents != 0) {
      ssize_t n = ::read(in, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return ioError("read from stdin");
      inOpen = n > 0;
      bool sent = n == 0 ? lines.finish() : lines.feed(std::string_view(buf.data(), static_cast<std::size_t>(n)));
      if (!sent) return bridgeFailure("write to the bridge");
    }
  }
}

}  // namespace lw::bridge
