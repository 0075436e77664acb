#include "verify/baseline/content_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lw::verify {
namespace {

constexpr std::size_t kFlushAt = 1 << 20;

Error storeError(const std::string& what, const std::string& path, int err) {
  return makeError(ErrorCode::IoError, what + " '" + path + "': " + std::strerror(err),
                   "the baseline store must be on a writable local disk outside the workspace", path);
}

}  // namespace

Result<ContentStore> ContentStore::create(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return storeError("cannot create baseline store", path, errno);
  return ContentStore(fd, path, 0);
}

Result<ContentStore> ContentStore::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return storeError("cannot open baseline store", path, errno);
  struct stat s {};
  fstat(fd, &s);
  return ContentStore(fd, path, static_cast<std::uint64_t>(s.st_size));
}

ContentStore::ContentStore(ContentStore&& o) noexcept
    : fd_(o.fd_), path_(std::move(o.path_)), end_(o.end_), pending_(std::move(o.pending_)) {
  o.fd_ = -1;
}

ContentStore& ContentStore::operator=(ContentStore&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    end_ = o.end_;
    pending_ = std::move(o.pending_);
    o.fd_ = -1;
  }
  return *this;
}

ContentStore::~ContentStore() {
  if (fd_ >= 0) {
    (void)flush();
    ::close(fd_);
  }
}

Result<StoreSpan> ContentStore::append(std::string_view bytes) {
  StoreSpan span{end_, bytes.size()};
  pending_.append(bytes);
  end_ += bytes.size();
  if (pending_.size() >= kFlushAt) {
    auto st = flush();
    if (!st) return st.error();
  }
  return span;
}

Status ContentStore::flush() {
  std::size_t done = 0;
  std::uint64_t at = end_ - pending_.size();
  while (done < pending_.size()) {
    ssize_t n = ::pwrite(fd_, pending_.data() + done, pending_.size() - done, static_cast<off_t>(at + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return storeError("cannot write baseline store", path_, errno);
    }
    done += static_cast<std::size_t>(n);
  }
  pending_.clear();
  return Ok{};
}

Result<std::string> ContentStore::read(StoreSpan span) {
  if (!pending_.empty()) {
    auto st = flush();
    if (!st) return st.error();
  }
  if (span.offset + span.size > end_)
    return makeError(ErrorCode::IoError, "baseline store '" + path_ + "' is truncated", "take a new baseline", path_);
  std::string out(span.size, '\0');
  std::size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(span.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return storeError("cannot read baseline store", path_, n < 0 ? errno : EIO);
    done += static_cast<std::size_t>(n);
  }
  return out;
}

}  // namespace lw::verify
