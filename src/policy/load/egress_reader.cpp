#include "policy/load/egress_reader.h"

#include <charconv>

#include "core/file_io.h"

namespace lw {

namespace {

constexpr std::string_view kHostHint =
    "write a host name (registry.npmjs.org) or every name below one (*.example.org), with an optional :port; "
    "addresses are never listed (the proxy resolves names itself)";

bool readHost(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, std::string_view text,
              EgressRule& rule) {
  auto host = canonicalHostPattern(text);
  if (!host) {
    reader.error(node, path, "'" + std::string(text) + "' is not a host name", std::string(kHostHint));
    return false;
  }
  rule.host = *host;
  return true;
}

// "host" or "host:port".
std::optional<EgressRule> readShortEntry(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path) {
  auto text = reader.string(node, path, 260);
  if (!text) return std::nullopt;
  EgressRule rule;
  std::string_view host = *text;
  if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
    const std::string_view digits = host.substr(colon + 1);
    const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), rule.port);
    if (err != std::errc{} || end != digits.data() + digits.size() || rule.port < 1 || rule.port > 65535) {
      reader.error(node, path, "'" + *text + "' names no valid port", "write host:port with a port from 1 to 65535");
      return std::nullopt;
    }
    host = host.substr(0, colon);
  }
  if (!readHost(reader, node, path, host, rule)) return std::nullopt;
  return rule;
}

void readHttpRule(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, EgressRule& rule) {
  auto fields = reader.mapping(node, path, {"method", "path"});
  if (!fields) return;
  EgressHttpRule http;
  for (const MapEntry& f : *fields) {
    const std::string fp = childPath(path, f.key);
    if (f.key == "method") {
      if (auto m = reader.oneOf(f.value, fp, {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}))
        http.method = *m;
    } else if (auto p = reader.string(f.value, fp, 2048)) {
      if (!p->starts_with("/"))
        reader.error(f.value, fp, "'" + *p + "' is not a path", "write a path prefix starting with /");
      else
        http.pathPrefix = *p;
    }
  }
  rule.http.push_back(std::move(http));
}

std::optional<EgressRule> readLongEntry(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path) {
  auto fields = reader.mapping(node, path, {"host", "port", "http"}, {"host"});
  if (!fields) return std::nullopt;
  EgressRule rule;
  bool ok = true;
  for (const MapEntry& f : *fields) {
    const std::string fp = childPath(path, f.key);
    if (f.key == "host") {
      auto text = reader.string(f.value, fp, 260);
      ok = text && readHost(reader, f.value, fp, *text, rule) && ok;
    } else if (f.key == "port") {
      auto port = reader.integer(f.value, fp, 1, 65535);
      if (port) rule.port = static_cast<int>(*port);
      ok = port.has_value() && ok;
    } else {
      ok = reader.sequence(f.value, fp, 1, 32, [&](const YAML::Node& n, const std::string& ip) {
        readHttpRule(reader, n, ip, rule);
      }) && ok;
    }
  }
  if (!ok) return std::nullopt;
  return rule;
}

}  // namespace

std::optional<std::vector<EgressRule>> readEgressList(YamlSchemaReader& reader, const YAML::Node& node,
                                                      const std::string& path) {
  std::vector<EgressRule> rules;
  const bool isList =
      reader.sequence(node, path, 0, kMaxEgressEntries, [&](const YAML::Node& n, const std::string& ip) {
        auto rule = n.IsMap() ? readLongEntry(reader, n, ip) : readShortEntry(reader, n, ip);
        if (!rule) return;
        rule->origin = reader.locate(n, ip).toString();
        rules.push_back(std::move(*rule));
      });
  if (!isList) return std::nullopt;
  return rules;
}

namespace {

constexpr std::size_t kEgressFileMaxBytes = 64 * 1024;

// The entries of the --egress flags, each a scalar node of its own (never
// text pasted into YAML), their problems named by the flag.
std::vector<EgressRule> readFlagEntries(const std::vector<std::string>& entries, std::vector<Diagnostic>& problems) {
  std::vector<EgressRule> rules;
  for (const std::string& entry : entries) {
    YamlSchemaReader reader("");
    if (auto rule = readShortEntry(reader, YAML::Node(entry), "--egress")) {
      rule->origin = "--egress " + entry;
      rules.push_back(std::move(*rule));
    }
    for (auto& d : reader.takeDiagnostics()) problems.push_back(std::move(d));
  }
  return rules;
}

std::vector<EgressRule> readListFile(const std::string& file, std::vector<Diagnostic>& problems) {
  auto text = readBoundedFile(file, kEgressFileMaxBytes, ErrorCode::UsageError);
  if (!text) {
    problems.push_back({{file, 0, 0, ""}, text.error().message, ""});
    return {};
  }
  YamlSchemaReader reader(file);
  std::optional<std::vector<EgressRule>> rules;
  try {
    rules = readEgressList(reader, YAML::Load(*text), "");
  } catch (const std::exception& e) {  // yaml-cpp's parse errors
    reader.errorAt({file, 0, 0, ""}, std::string("cannot be read: ") + e.what());
  }
  for (auto& d : reader.takeDiagnostics()) problems.push_back(std::move(d));
  return rules.value_or(std::vector<EgressRule>{});
}

}  // namespace

Result<std::vector<EgressRule>> readCommandLineEgress(const std::vector<std::string>& entries,
                                                      const std::optional<std::string>& listFile) {
  std::vector<Diagnostic> problems;
  std::vector<EgressRule> rules = readFlagEntries(entries, problems);
  if (listFile) {
    auto fromFile = readListFile(*listFile, problems);
    rules.insert(rules.end(), fromFile.begin(), fromFile.end());
  }
  if (problems.empty()) return rules;
  Error e =
      makeError(ErrorCode::UsageError, problems.front().message, problems.front().hint, problems.front().location.file);
  e.diagnostics = std::move(problems);
  return e;
}

}  // namespace lw
