#include "core/file_io.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace lw {

Result<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes, ErrorCode code) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int err = errno;
    return makeError(code, "cannot open " + path + ": " + std::strerror(err),
                     err == ENOENT ? "check the path" : "check the file's permissions", path);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    return makeError(code, path + " is not a regular file", "give the path of a file", path);
  }
  if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > maxBytes) {
    ::close(fd);
    return makeError(code,
                     path + " is " + std::to_string(st.st_size) + " bytes; the limit is " + std::to_string(maxBytes),
                     "split or shorten the file", path);
  }
  std::string content;
  std::vector<char> buf(16384);
  while (true) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return makeError(code, "cannot read " + path + ": " + std::strerror(err), "", path);
    }
    if (n == 0) break;
    content.append(buf.data(), static_cast<std::size_t>(n));
    if (content.size() > maxBytes) {
      ::close(fd);
      return makeError(code, path + " is larger than the limit of " + std::to_string(maxBytes) + " bytes",
                       "split or shorten the file", path);
    }
  }
  ::close(fd);
  return content;
}

Status writeFileAtomic(const std::string& path, std::string_view content, bool sync) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return makeError(ErrorCode::IoError, "cannot write " + path + ": " + std::strerror(errno),
                     "check that the directory exists and is writable", path);
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return makeError(ErrorCode::IoError, "cannot write " + path + ": " + std::strerror(err), "", path);
    }
    done += static_cast<std::size_t>(n);
  }
  if ((sync && ::fsync(fd) != 0) || ::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return makeError(ErrorCode::IoError, "cannot write " + path + ": " + std::strerror(err), "", path);
  }
  return Ok{};
}

std::pair<int, int> lineColumnAt(std::string_view text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;  // count characters, not UTF-8 continuation bytes
    }
  }
  return {line, column};
}

std::size_t firstInvalidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return i;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return i;
    // Overlong forms and surrogates are invalid too.
    if (len == 2 && c < 0xC2) return i;
    unsigned char c1 = static_cast<unsigned char>(len > 1 ? text[i + 1] : 0);
    if (len == 3 && ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0))) return i;
    if (len == 4 && ((c == 0xF0 && c1 < 0x90) || c > 0xF4 || (c == 0xF4 && c1 >= 0x90))) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string currentUserHome() {
  std::vector<char> buf(16384);
  struct passwd pw {};
  struct passwd* result = nullptr;
  if (::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &result) == 0 && result != nullptr &&
      result->pw_dir != nullptr && result->pw_dir[0] == '/')
    return result->pw_dir;
  const char* home = std::getenv("HOME");
  return home != nullptr ? home : "/";
}

}  // namespace lw
