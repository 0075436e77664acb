#include "verify/baseline/baseline_json.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <variant>

#include <boost/json.hpp>

namespace lw::verify {
namespace {

namespace json = boost::json;
constexpr int kFormat = 2;

json::object entryJson(const BaselineEntry& e) {
  json::object o;
  o["a"] = static_cast<int>(e.area);
  o["o"] = static_cast<int>(e.origin);
  o["p"] = e.path;
  o["t"] = static_cast<int>(e.stat.type);
  o["m"] = e.stat.perm;
  o["s"] = e.stat.size;
  o["mt"] = e.stat.mtimeNs;
  o["ct"] = e.stat.ctimeNs;
  o["i"] = e.stat.ino;
  if (!e.stat.linkTarget.empty()) o["l"] = e.stat.linkTarget;
  o["c"] = static_cast<int>(e.source);
  if (e.source == ContentSource::Blob) o["b"] = e.blobId;
  if (e.source == ContentSource::Store) {
    o["so"] = e.storeOffset;
    o["sn"] = e.storeSize;
  }
  if (e.racy) o["r"] = true;
  return o;
}

template <class T>
T num(const json::object& o, const char* key, T def = 0) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return def;
  return json::value_to<T>(*v);
}

std::string str(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? std::string(v->as_string()) : std::string();
}

Error invalid(const std::string& file, const std::string& why) {
  return makeError(ErrorCode::IoError, "baseline '" + file + "' is invalid: " + why,
                   "take a new one with 'loopwright verify snapshot'", file);
}

}  // namespace

Status saveBaseline(const Baseline& b, const std::string& file) {
  json::object o;
  o["format"] = kFormat;
  o["repoDir"] = b.repoDir;
  o["workTree"] = b.workTree;
  o["gitDir"] = b.gitDir;
  o["repoPath"] = b.repoPath;
  o["indexFile"] = b.indexFile;
  o["hooksPath"] = b.hooksPath;
  o["hooksPathInWorkTree"] = b.hooksPathInWorkTree;
  o["storePath"] = b.storePath;
  o["takenAtNs"] = b.takenAtNs;
  o["options"] = {{"ignoredBudgetBytes", b.options.ignoredBudgetBytes},
                  {"ignoredBudgetFiles", b.options.ignoredBudgetFiles},
                  {"maxFileBytes", b.options.maxFileBytes},
                  {"racyWindowNs", b.options.racyWindowNs}};
  o["ignoredCapturedBytes"] = b.ignoredCapturedBytes;
  o["ignoredCapturedFiles"] = b.ignoredCapturedFiles;
  o["notRestorable"] = b.notRestorable;
  json::array waits;
  for (const MaintenanceWait& w : b.maintenanceWaits)
    waits.push_back({{"pidFile", w.pidFile}, {"pid", w.pid}, {"waitedMs", w.waitedMs}});
  o["maintenanceWaits"] = std::move(waits);
  json::array refs;
  for (const RefState& r : b.refs) refs.push_back({{"name", r.name}, {"target", r.target}});
  o["refs"] = std::move(refs);
  json::array entries;
  entries.reserve(b.entries.size());
  for (const BaselineEntry& e : b.entries) entries.push_back(entryJson(e));
  o["entries"] = std::move(entries);
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return makeError(ErrorCode::IoError, "cannot write baseline '" + file + "'", "", file);
  std::string text = json::serialize(o);
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok) return makeError(ErrorCode::IoError, "cannot write baseline '" + file + "'", "", file);
  return Ok{};
}

namespace {

// One entry of the file; the reason when it is not one a baseline can hold.
std::optional<std::string> entryFromJson(const json::object& e, BaselineEntry& x) {
  int area = num<int>(e, "a"), origin = num<int>(e, "o"), type = num<int>(e, "t"), source = num<int>(e, "c");
  if (area < 0 || area > 2 || origin < 0 || origin > 3 || type < 0 || type > 3 || source < 0 || source > 2)
    return "entry '" + str(e, "p") + "' has an unknown area, origin, type or source";
  x.area = static_cast<Area>(area);
  x.origin = static_cast<Origin>(origin);
  x.source = static_cast<ContentSource>(source);
  x.path = str(e, "p");
  x.stat.type = static_cast<FileType>(type);
  x.stat.perm = num<std::uint32_t>(e, "m");
  x.stat.size = num<std::uint64_t>(e, "s");
  x.stat.mtimeNs = num<std::int64_t>(e, "mt");
  x.stat.ctimeNs = num<std::int64_t>(e, "ct");
  x.stat.ino = num<std::uint64_t>(e, "i");
  x.stat.linkTarget = str(e, "l");
  x.blobId = str(e, "b");
  x.storeOffset = num<std::uint64_t>(e, "so");
  x.storeSize = num<std::uint64_t>(e, "sn");
  x.racy = e.if_contains("r") != nullptr && e.at("r").as_bool();
  if (x.path.empty() || x.path.starts_with("/") || ("/" + x.path + "/").find("/../") != std::string::npos)
    return "entry path '" + x.path + "' is not a plain relative path";
  return std::nullopt;
}

// Everything but the entries. Throws what Boost.JSON throws on a wrong shape.
void headerFromJson(const json::object& o, Baseline& b) {
  b.repoDir = str(o, "repoDir");
  b.workTree = str(o, "workTree");
  b.gitDir = str(o, "gitDir");
  b.repoPath = str(o, "repoPath");
  b.indexFile = str(o, "indexFile");
  b.hooksPath = str(o, "hooksPath");
  b.hooksPathInWorkTree = str(o, "hooksPathInWorkTree");
  b.storePath = str(o, "storePath");
  b.takenAtNs = num<std::int64_t>(o, "takenAtNs");
  const json::object& opt = o.at("options").as_object();
  b.options.ignoredBudgetBytes = num<std::uint64_t>(opt, "ignoredBudgetBytes");
  b.options.ignoredBudgetFiles = num<std::uint64_t>(opt, "ignoredBudgetFiles");
  b.options.maxFileBytes = num<std::uint64_t>(opt, "maxFileBytes");
  b.options.racyWindowNs = num<std::int64_t>(opt, "racyWindowNs");
  b.options.storePath = b.storePath;
  b.ignoredCapturedBytes = num<std::uint64_t>(o, "ignoredCapturedBytes");
  b.ignoredCapturedFiles = num<std::uint64_t>(o, "ignoredCapturedFiles");
  b.notRestorable = num<std::uint64_t>(o, "notRestorable");
  if (const json::value* waits = o.if_contains("maintenanceWaits"))
    for (const json::value& w : waits->as_array())
      b.maintenanceWaits.push_back({str(w.as_object(), "pidFile"), num<std::int64_t>(w.as_object(), "pid"),
                                    num<std::int64_t>(w.as_object(), "waitedMs")});
  for (const json::value& r : o.at("refs").as_array())
    b.refs.push_back({str(r.as_object(), "name"), str(r.as_object(), "target")});
}

// The baseline in `text`; the reason when it is not a valid one.
std::variant<Baseline, std::string> baselineFromText(const std::string& text) {
  Baseline b;
  try {
    // Paths are a file system's bytes, not always UTF-8: the baseline keeps
    // them exactly (its writer is Boost.JSON, which writes bytes as they are).
    json::parse_options options;
    options.allow_invalid_utf8 = true;
    json::value v = json::parse(text, {}, options);
    const json::object& o = v.as_object();
    if (num<int>(o, "format") != kFormat) return std::string("unknown format");
    headerFromJson(o, b);
    const json::array& entries = o.at("entries").as_array();
    b.entries.resize(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (auto why = entryFromJson(entries[i].as_object(), b.entries[i])) return *why;
  } catch (const std::exception& ex) {
    return std::string(ex.what());
  }
  return b;
}

}  // namespace

Result<Baseline> loadBaseline(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return makeError(ErrorCode::IoError, "cannot read baseline '" + file + "'",
                     "pass the FILE written by 'loopwright verify snapshot --out FILE'", file);
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = baselineFromText(ss.str());
  if (auto* why = std::get_if<std::string>(&parsed)) return invalid(file, *why);
  Baseline b = std::move(std::get<Baseline>(parsed));
  if (b.workTree.empty() || b.gitDir.empty() || b.repoPath.empty() || b.indexFile.empty() || b.storePath.empty())
    return invalid(file, "workTree, gitDir, repoPath, indexFile and storePath are required");
  if (!b.reindex()) return invalid(file, "entries are not grouped by directory and sorted by name");
  return b;
}

}  // namespace lw::verify
