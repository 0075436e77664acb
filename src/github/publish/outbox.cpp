#include "github/publish/outbox.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "core/json_text.h"

#include "core/json_fields.h"

namespace lw::github {

namespace json = boost::json;
namespace fs = std::filesystem;
using namespace json_fields;

namespace {

Error ioError(const std::string& what, const std::string& path) {
  return makeError(ErrorCode::IoError, what + " '" + path + "': " + std::strerror(errno),
                   "check that the state directory exists and is writable", path);
}

json::value progressJson(const OutboxProgress& p) {
  json::object checks;
  for (const auto& [stage, c] : p.checks)
    checks[stage] = json::object{{"id", c.id}, {"batchesDone", c.batchesDone}, {"done", c.done}};
  return json::object{{"reviewDone", p.reviewDone},
                      {"checks", std::move(checks)},
                      {"labelsDone", p.labelsDone},
                      {"commentDone", p.commentDone}};
}

OutboxProgress readProgress(const json::object& o) {
  OutboxProgress p;
  p.reviewDone = optBool(o, "reviewDone", "progress").value_or(false);
  p.labelsDone = optBool(o, "labelsDone", "progress").value_or(false);
  p.commentDone = optBool(o, "commentDone", "progress").value_or(false);
  if (const json::object* checks = optObject(o, "checks", "progress")) {
    for (const auto& kv : *checks) {
      std::string path = "progress.checks." + std::string(kv.key());
      const json::object& c = object(kv.value(), path);
      CheckProgress cp;
      cp.id = optInt(c, "id", path).value_or(0);
      cp.batchesDone = static_cast<std::size_t>(optInt(c, "batchesDone", path).value_or(0));
      cp.done = optBool(c, "done", path).value_or(false);
      p.checks[std::string(kv.key())] = cp;
    }
  }
  return p;
}

Result<OutboxEntry> load(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return ioError("cannot read outbox entry", file);
  std::ostringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  json::value doc = json::parse(text.str(), ec);
  auto bad = [&](const std::string& why, const std::string& path) {
    Error e = makeError(ErrorCode::PublicationFailed, "outbox entry '" + file + "' is invalid: " + why,
                        "move the file away to skip it; its results are also in the step summary", file);
    e.location = Location{.file = file, .line = 0, .column = 0, .path = path};
    return e;
  };
  if (ec) return bad("not JSON: " + ec.message(), "");
  try {
    const json::object& o = object(doc, "");
    auto request = publicationFromJson(field(o, "request", ""));
    if (!request) {
      std::string path = request.error().location ? "request." + request.error().location->path : "request";
      return bad(request.error().message, path);
    }
    OutboxEntry e;
    e.request = std::move(request).value();
    if (const json::object* p = optObject(o, "progress", "")) e.progress = readProgress(*p);
    e.attempts = static_cast<int>(optInt(o, "attempts", "").value_or(0));
    e.lastError = optStr(o, "lastError", "").value_or("");
    e.file = file;
    return e;
  } catch (const FieldError& err) {
    return bad(std::string(err.path) + ": " + err.what(), err.path);
  }
}

}  // namespace

Outbox::Outbox(std::string stateDir) : dir_((fs::path(stateDir) / "outbox").string()) {}

namespace {
std::string safeName(const std::string& id) {
  std::string safe;
  for (char c : id) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return safe;
}
}  // namespace

std::string Outbox::pathFor(const std::string& id) const {
  return (fs::path(dir_) / (safeName(id) + ".json")).string();
}

std::string Outbox::claimPathFor(const std::string& id) const {
  return (fs::path(dir_) / "claims" / (safeName(id) + ".lock")).string();
}

OutboxClaim::~OutboxClaim() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {
// flock on the claim file at `path`; -1 while another process holds it.
Result<int> lockClaimFile(const std::string& path) {
  // complete() unlinks the claim file of a finished entry; a file locked
  // after that is no longer the one at the path, so it is opened again.
  for (int tries = 0; tries < 8; ++tries) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return ioError("cannot open outbox claim", path);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) return -1;
      errno = err;
      return ioError("cannot lock outbox claim", path);
    }
    struct stat held {
    }, now{};
    if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &now) == 0 && held.st_ino == now.st_ino &&
        held.st_dev == now.st_dev)
      return fd;
    ::close(fd);
  }
  return makeError(ErrorCode::IoError, "cannot claim outbox entry: its claim file '" + path + "' keeps changing", {},
                   path);
}
}  // namespace

Result<std::optional<Outbox::Claimed>> Outbox::claim(const std::string& id) {
  const std::string path = claimPathFor(id);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec)
    return makeError(ErrorCode::IoError,
                     "cannot create '" + fs::path(path).parent_path().string() + "': " + ec.message(), {}, path);
  auto fd = lockClaimFile(path);
  if (!fd) return std::move(fd).error();
  if (*fd < 0) return std::optional<Claimed>{};
  Claimed claimed{OutboxClaim(*fd), std::nullopt};
  const std::string file = pathFor(id);
  if (fs::exists(file, ec)) {
    auto e = load(file);
    if (!e) return std::move(e).error();
    claimed.entry = std::move(e).value();
  }
  return std::optional<Claimed>(std::move(claimed));
}

Result<OutboxEntry> Outbox::enqueue(const PublicationRequest& request) {
  if (request.id.empty())
    return makeError(ErrorCode::PublicationFailed, "a publication needs an id", "set PublicationRequest::id");
  std::string file = pathFor(request.id);
  if (fs::exists(file)) return load(file);
  OutboxEntry e;
  e.request = request;
  e.file = file;
  Status s = save(e);
  if (!s) return std::move(s).error();
  return e;
}

Status Outbox::save(OutboxEntry& entry) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return makeError(ErrorCode::IoError, "cannot create '" + dir_ + "': " + ec.message(), {}, dir_);
  if (entry.file.empty()) entry.file = pathFor(entry.request.id);
  json::object doc{{"version", 1},
                   {"request", toJson(entry.request)},
                   {"progress", progressJson(entry.progress)},
                   {"attempts", entry.attempts},
                   {"lastError", entry.lastError}};
  std::string text = toJsonText(doc);
  std::string tmp = entry.file + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return ioError("cannot write outbox entry", tmp);
  std::size_t off = 0;
  while (off < text.size()) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Error e = ioError("cannot write outbox entry", tmp);
      ::close(fd);
      return e;
    }
    off += static_cast<std::size_t>(n);
  }
  // The entry must survive a crash right after: a rename of unsynced data can
  // leave an empty file on ext4/xfs after power loss.
  if (::fsync(fd) != 0 || ::close(fd) != 0) return ioError("cannot sync outbox entry", tmp);
  if (::rename(tmp.c_str(), entry.file.c_str()) != 0) return ioError("cannot rename outbox entry", entry.file);
  return Ok{};
}

std::string Outbox::donePath(const OutboxEntry& entry) const {
  return (fs::path(dir_) / "done" / fs::path(entry.file).filename()).string();
}

std::string Outbox::parkedPath(const OutboxEntry& entry) const {
  return (fs::path(dir_) / "parked" / fs::path(entry.file).filename()).string();
}

// Moves an entry out of the pending set into `sub`/, dropping its claim
// file (called under the claim: nothing is left to claim).
Status Outbox::moveTo(const OutboxEntry& entry, const std::string& sub) {
  fs::path target = fs::path(dir_) / sub;
  std::error_code ec;
  fs::create_directories(target, ec);
  if (!ec) fs::rename(entry.file, target / fs::path(entry.file).filename(), ec);
  if (ec)
    return makeError(ErrorCode::IoError, "cannot move '" + entry.file + "' to " + sub + "/: " + ec.message(), {},
                     entry.file);
  fs::remove(claimPathFor(entry.request.id), ec);
  return Ok{};
}

Status Outbox::complete(const OutboxEntry& entry) { return moveTo(entry, "done"); }

Status Outbox::park(const OutboxEntry& entry) { return moveTo(entry, "parked"); }

Result<std::vector<OutboxEntry>> Outbox::pending() const {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::exists(dir_, ec)) return std::vector<OutboxEntry>{};
  for (const auto& de : fs::directory_iterator(dir_, ec)) {
    if (de.is_regular_file() && de.path().extension() == ".json") files.push_back(de.path().string());
  }
  if (ec) return makeError(ErrorCode::IoError, "cannot list '" + dir_ + "': " + ec.message(), {}, dir_);
  std::sort(files.begin(), files.end());
  std::vector<OutboxEntry> out;
  for (const auto& f : files) {
    auto e = load(f);
    if (!e) return std::move(e).error();
    out.push_back(std::move(e).value());
  }
  return out;
}

}  // namespace lw::github
