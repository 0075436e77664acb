#include "sandbox/k8s/k8s_tar.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace lw::sandbox::k8s {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kBlock = 512;

Error tarError(const std::string& message) {
  return makeError(ErrorCode::SandboxLaunchFailed, message,
                   "the step's outputs are regular files and directories under $LOOPWRIGHT_OUT", "");
}

void putOctal(char* field, std::size_t width, std::uint64_t value) {
  std::string digits(width - 1, '0');
  for (std::size_t i = width - 1; i-- > 0 && value > 0; value >>= 3) digits[i] = static_cast<char>('0' + (value & 7));
  std::memcpy(field, digits.data(), width - 1);
  field[width - 1] = '\0';
}

std::string header(const std::string& name, char type, std::uint64_t size, unsigned mode, const std::string& link) {
  std::string h(kBlock, '\0');
  std::memcpy(h.data(), name.data(), std::min<std::size_t>(name.size(), 100));
  putOctal(h.data() + 100, 8, mode);
  putOctal(h.data() + 108, 8, 0);
  putOctal(h.data() + 116, 8, 0);
  putOctal(h.data() + 124, 12, size);
  putOctal(h.data() + 136, 12, 0);
  h[156] = type;
  std::memcpy(h.data() + 157, link.data(), std::min<std::size_t>(link.size(), 100));
  std::memcpy(h.data() + 257,
              "ustar\0"
              "00",
              8);
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : h) sum += c;
  putOctal(h.data() + 148, 7, sum);
  h[155] = ' ';
  return h;
}

std::string padded(std::string data) {
  data.resize((data.size() + kBlock - 1) / kBlock * kBlock, '\0');
  return data;
}

// A pax record "<len> key=value\n", whose length counts itself.
std::string paxRecord(const std::string& key, const std::string& value) {
  const std::size_t body = key.size() + value.size() + 3;
  std::size_t len = body + std::to_string(body).size();
  if (std::to_string(len).size() != std::to_string(body).size()) ++len;
  return std::to_string(len) + " " + key + "=" + value + "\n";
}

// One entry: a pax header first when the name or link does not fit ustar's 100 bytes.
std::string entry(const std::string& name, char type, const std::string& data, unsigned mode, const std::string& link) {
  std::string out;
  std::string pax;
  if (name.size() > 100) pax += paxRecord("path", name);
  if (link.size() > 100) pax += paxRecord("linkpath", link);
  if (!pax.empty()) out += header("./PaxHeaders/entry", 'x', pax.size(), 0644, "") + padded(pax);
  return out + header(name, type, data.size(), mode, link) + padded(data);
}

std::optional<std::string> readWhole(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint64_t octalAt(const char* field, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width && field[i] >= '0' && field[i] <= '7'; ++i) v = v * 8 + (field[i] - '0');
  return v;
}

bool checksumOk(const char* h) {
  unsigned sum = 0;
  for (std::size_t i = 0; i < kBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(h[i]);
  return sum == octalAt(h + 148, 8);
}

// The components of an entry's path, or nullopt when it is absolute or climbs.
std::optional<std::vector<std::string>> componentsOf(const std::string& path) {
  if (path.starts_with("/")) return std::nullopt;
  std::vector<std::string> parts;
  std::stringstream in(path);
  for (std::string part; std::getline(in, part, '/');) {
    if (part.empty() || part == ".") continue;
    if (part == "..") return std::nullopt;
    parts.push_back(part);
  }
  return parts;
}

// Opens (making it when absent) each directory of `parts` under `dirFd`
// without following a link; the last one's descriptor, or -1.
int openDirs(int dirFd, const std::vector<std::string>& parts, std::size_t count) {
  int fd = ::dup(dirFd);
  for (std::size_t i = 0; i < count && fd >= 0; ++i) {
    if (::mkdirat(fd, parts[i].c_str(), 0755) != 0 && errno != EEXIST) {
      ::close(fd);
      return -1;
    }
    const int next = ::openat(fd, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(fd);
    fd = next;
  }
  return fd;
}

bool makeDirs(int dirFd, const std::vector<std::string>& parts) {
  const int fd = openDirs(dirFd, parts, parts.size());
  return fd >= 0 && ::close(fd) == 0;
}

bool writeFile(int dirFd, const std::vector<std::string>& parts, std::string_view data) {
  const int parent = openDirs(dirFd, parts, parts.size() - 1);
  if (parent < 0) return false;
  const int fd = ::openat(parent, parts.back().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  ::close(parent);
  if (fd < 0) return false;
  bool ok = true;
  for (std::size_t at = 0; at < data.size() && ok;) {
    const ssize_t n = ::write(fd, data.data() + at, data.size() - at);
    ok = n > 0;
    at += ok ? static_cast<std::size_t>(n) : 0;
  }
  return ::close(fd) == 0 && ok;
}

// The pax "path" of an extended header's records, "" when none.
std::string paxPath(std::string_view records) {
  std::string path;
  while (!records.empty()) {
    const std::size_t space = records.find(' ');
    const std::size_t len = space == std::string_view::npos ? 0 : std::strtoull(records.data(), nullptr, 10);
    if (len == 0 || len > records.size()) break;
    std::string_view record = records.substr(space + 1, len - space - 2);
    if (record.starts_with("path=")) path = std::string(record.substr(5));
    records.remove_prefix(len);
  }
  return path;
}

}  // namespace

Result<std::string> tarTree(const fs::path& root, std::size_t maxBytes) {
  std::string out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = "./" + fs::relative(it->path(), root).generic_string();
    const fs::file_status st = it->symlink_status();
    if (fs::is_symlink(st)) {
      out += entry(name, '2', "", 0777, fs::read_symlink(it->path(), ec).string());
    } else if (fs::is_directory(st)) {
      out += entry(name, '5', "", 0755, "");
    } else if (fs::is_regular_file(st)) {
      auto data = readWhole(it->path());
      if (!data) return tarError("cannot read " + it->path().string() + " for the pod's workspace");
      const bool exec = (st.permissions() & fs::perms::owner_exec) != fs::perms::none;
      out += entry(name, '0', *data, exec ? 0755 : 0644, "");
    }
    if (out.size() > maxBytes)
      return tarError("the workspace is over " + std::to_string(maxBytes) + " bytes as a tar stream");
  }
  if (ec) return tarError("cannot list " + root.string() + ": " + ec.message());
  return out + std::string(2 * kBlock, '\0');
}

std::string tarFiles(const std::vector<TarFile>& files) {
  std::string out;
  for (const TarFile& f : files) out += entry("./" + f.name, '0', f.data, f.executable ? 0755 : 0644, "");
  return out + std::string(2 * kBlock, '\0');
}

Result<std::size_t> untarInto(std::string_view tar, const fs::path& dir, const UntarLimits& limits) {
  const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dirFd < 0) return tarError("cannot open " + dir.string() + " for the step's outputs");
  std::size_t files = 0, bytes = 0, entries = 0, at = 0;
  std::string longName;
  std::optional<Error> refused;
  while (!refused && at + kBlock <= tar.size()) {
    const char* h = tar.data() + at;
    if (std::all_of(h, h + kBlock, [](char c) { return c == '\0'; })) break;
    const std::uint64_t size = octalAt(h + 124, 12);
    const std::size_t dataAt = at + kBlock;
    at = dataAt + (size + kBlock - 1) / kBlock * kBlock;
    if (!checksumOk(h) || (h[124] & 0x80) != 0 || dataAt + size > tar.size()) {
      refused = tarError("the step's outputs are not a tar stream this reader accepts");
      break;
    }
    std::string_view data = tar.substr(dataAt, size);
    const char type = h[156];
    if (type == 'x' || type == 'L') {
      longName = type == 'x' ? paxPath(data) : std::string(data.substr(0, data.find('\0')));
      continue;
    }
    if (type == 'g') continue;
    std::string name = longName.empty() ? std::string(h, strnlen(h, 100)) : longName;
    if (longName.empty() && std::memcmp(h + 257, "ustar", 5) == 0 && h[345] != '\0')
      name = std::string(h + 345, strnlen(h + 345, 155)) + "/" + name;
    longName.clear();
    auto parts = componentsOf(name);
    if (++entries > limits.maxEntries)
      refused = tarError("the step's outputs hold over " + std::to_string(limits.maxEntries) + " entries");
    else if (!parts)
      refused = tarError("an output entry leaves the out dir: " + name);
    else if (type != '0' && type != '\0' && type != '5')
      refused = tarError("an output entry is not a file or directory (type '" + std::string(1, type) + "'): " + name);
    else if ((bytes += size) > limits.maxBytes)
      refused = tarError("the step's outputs are over " + std::to_string(limits.maxBytes) + " bytes");
    else if (parts->empty())
      continue;
    else if (type == '5' ? !makeDirs(dirFd, *parts) : !writeFile(dirFd, *parts, data))
      refused = tarError("cannot unpack the output " + name + " (it exists, or a link is in its way)");
    else
      files += type == '5' ? 0 : 1;
  }
  ::close(dirFd);
  if (refused) return *refused;
  return files;
}

}  // namespace lw::sandbox::k8s
