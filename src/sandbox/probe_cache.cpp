#include "sandbox/probe_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "sandbox/probe_report_json.h"

namespace lw::sandbox {

namespace json = boost::json;

namespace {

std::int64_t nowSeconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

}  // namespace

std::optional<std::filesystem::path> probeCacheDir(const Environment& env) {
  if (auto x = env.get("XDG_CACHE_HOME"); x && !x->empty() && (*x)[0] == '/') {
    return std::filesystem::path(*x) / "loopwright";
  }
  if (auto h = env.get("HOME"); h && !h->empty() && (*h)[0] == '/') {
    return std::filesystem::path(*h) / ".cache" / "loopwright";
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> probeCacheFile(const Environment& env, BackendId backend) {
  auto dir = probeCacheDir(env);
  if (!dir) return std::nullopt;
  return *dir / (std::string(toString(backend)) + "-probe-" + std::to_string(::getuid()) + ".json");
}

std::optional<ProbeReport> loadCachedProbe(const std::filesystem::path& file, const std::string& key,
                                           std::int64_t now) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  std::stringstream buf;
  buf << in.rdbuf();
  boost::system::error_code ec;
  json::value v = json::parse(buf.str(), ec);
  if (ec || !v.is_object()) return std::nullopt;
  const json::object& o = v.get_object();
  const json::value* k = o.if_contains("key");
  const json::value* t = o.if_contains("probedAt");
  const json::value* r = o.if_contains("report");
  if (k == nullptr || !k->is_string() || k->get_string() != key || t == nullptr || !t->is_int64() || r == nullptr) {
    return std::nullopt;
  }
  std::int64_t age = now - t->get_int64();
  if (age < 0 || age > kProbeCacheMaxAge.count()) return std::nullopt;
  return probeReportFromJson(*r);
}

std::optional<ProbeReport> loadCachedProbe(const std::filesystem::path& file, const std::string& key) {
  return loadCachedProbe(file, key, nowSeconds());
}

void storeCachedProbe(const std::filesystem::path& file, const std::string& key, const ProbeReport& report,
                      std::int64_t probedAt) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return;
  ::chmod(file.parent_path().c_str(), 0700);
  json::object o{{"key", key}, {"probedAt", probedAt}, {"report", toJson(report)}};
  std::string text = json::serialize(o);
  std::string tmp = file.string() + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), file.c_str()) != 0) ::unlink(tmp.c_str());
}

void storeCachedProbe(const std::filesystem::path& file, const std::string& key, const ProbeReport& report) {
  storeCachedProbe(file, key, report, nowSeconds());
}

ProbeReport probeThroughCache(const std::optional<std::filesystem::path>& file, bool readCache, const std::string& key,
                              const std::function<ProbeReport()>& run) {
  const bool cacheable = file && !key.empty();
  if (cacheable && readCache)
    if (auto cached = loadCachedProbe(*file, key)) return std::move(*cached);
  ProbeReport report = run();
  if (cacheable) storeCachedProbe(*file, key, report);
  return report;
}

}  // namespace lw::sandbox
