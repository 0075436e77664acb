#include "host/qualify_cache.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "core/file_io.h"
#include "host/sha256.h"

namespace lw::host {

namespace json = boost::json;
namespace fs = std::filesystem;

std::string fingerprintOf(const FingerprintInputs& in) {
  std::ostringstream s;
  // Length-prefixed fields: no two different inputs serialise alike.
  auto field = [&s](const std::string& name, const std::string& value) {
    s << name << ':' << value.size() << ':' << value << '\n';
  };
  field("v", "qualify-2");
  field("kernel", in.kernel);
  field("uid", std::to_string(in.uid));
  field("loopwright", in.loopwrightVersion);
  field("binary", in.loopwrightBinary);
  for (const auto& [name, dependencies] : in.backendDependencies) field("backend " + name, dependencies);
  field("host-config", in.hostConfigHash);
  field("options", in.options);
  field("userns", in.userns);
  return sha256Hex(s.str());
}

std::string cacheFile(const std::string& stateDir, unsigned uid) {
  return (fs::path(stateDir) / "qualify" / ("qualification-" + std::to_string(uid) + ".json")).string();
}

std::optional<json::object> loadCachedQualification(const std::string& file, const std::string& fingerprint,
                                                    std::int64_t now) {
  auto text = readBoundedFile(file, 4 << 20, ErrorCode::IoError);
  if (!text) return std::nullopt;
  boost::system::error_code ec;
  json::value v = json::parse(*text, ec);
  if (ec || !v.is_object()) return std::nullopt;
  const json::object& o = v.get_object();
  const json::value* fp = o.if_contains("fingerprint");
  const json::value* at = o.if_contains("storedAt");
  const json::value* report = o.if_contains("report");
  if (fp == nullptr || !fp->is_string() || fp->get_string() != fingerprint || at == nullptr || !at->is_int64() ||
      report == nullptr || !report->is_object())
    return std::nullopt;
  const std::int64_t age = now - at->get_int64();
  if (age < 0 || age > std::chrono::duration_cast<std::chrono::seconds>(kQualificationMaxAge).count())
    return std::nullopt;
  return report->get_object();
}

Status storeCachedQualification(const std::string& file, const std::string& fingerprint, const json::object& report,
                                std::int64_t now) {
  std::error_code ec;
  fs::create_directories(fs::path(file).parent_path(), ec);
  if (ec)
    return makeError(ErrorCode::IoError, "cannot create " + fs::path(file).parent_path().string() + ": " + ec.message(),
                     "set stateDir in the host config to a directory this user may write", file);
  json::object entry{{"fingerprint", fingerprint}, {"storedAt", now}, {"report", report}};
  auto st = writeFileAtomic(file, json::serialize(entry) + "\n");
  if (st) ::chmod(file.c_str(), 0600);
  return st;
}

}  // namespace lw::host
