#include "policy/load/sandbox_spec_reader.h"

#include <filesystem>

#include "policy/load/egress_reader.h"

namespace lw {
namespace {

std::vector<std::string_view> namesOf(const auto& all) {
  std::vector<std::string_view> names;
  for (auto v : all) names.push_back(toString(v));
  return names;
}

}  // namespace

std::optional<std::string> expandUserPath(const std::string& path, const std::string& homeDir) {
  std::string expanded;
  if (path == "~")
    expanded = homeDir;
  else if (path.starts_with("~/"))
    expanded = homeDir + path.substr(1);
  else if (path.starts_with("/"))
    expanded = path;
  else
    return std::nullopt;
  std::string normal = std::filesystem::path(expanded).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

std::optional<SandboxSpec> readSandboxSpec(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                                           const std::string& homeDir) {
  auto entries = reader.mapping(
      node, path,
      {"preferredBackends", "networkMode", "requiredCapabilities", "deniedReadPaths", "runtimeProfile", "egress"});
  if (!entries) return std::nullopt;
  SandboxSpec spec;
  spec.location = reader.locate(node, path);
  for (const MapEntry& e : *entries) {
    std::string p = childPath(path, e.key);
    if (e.key == "preferredBackends") {
      if (auto list = reader.stringList(e.value, p, 1, std::size(kAllBackends), namesOf(kAllBackends))) {
        spec.preferredBackends.emplace();
        for (const auto& s : *list) spec.preferredBackends->push_back(*parseBackendId(s));
      }
    } else if (e.key == "networkMode") {
      if (auto s = reader.oneOf(e.value, p, namesOf(kAllNetworkModes))) spec.networkMode = parseNetworkMode(*s);
    } else if (e.key == "requiredCapabilities") {
      if (auto list = reader.stringList(e.value, p, 0, 6, namesOf(kAllCapabilities))) {
        spec.requiredCapabilities.emplace();
        for (const auto& s : *list) spec.requiredCapabilities->push_back(*parseCapability(s));
      }
    } else if (e.key == "deniedReadPaths") {
      std::vector<std::string> seen;
      reader.sequence(e.value, p, 0, 64, [&](const YAML::Node& n, const std::string& ip) {
        auto s = reader.string(n, ip, 4096);
        if (!s) return;
        auto expanded = expandUserPath(*s, homeDir);
        if (!expanded) {
          reader.error(n, ip, "'" + *s + "' is not an absolute path",
                       "write /abs/path or ~/path (relative to the running user's home)");
          return;
        }
        if (std::find(seen.begin(), seen.end(), *expanded) != seen.end()) {
          reader.error(n, ip, "'" + *s + "' is listed twice", "each path may appear once");
          return;
        }
        seen.push_back(*expanded);
        spec.deniedReadPaths.push_back(*expanded);
      });
    } else if (e.key == "runtimeProfile") {
      spec.runtimeProfile = reader.name(e.value, p);
    } else if (e.key == "egress") {
      spec.egress = readEgressList(reader, e.value, p);
    }
  }
  return spec;
}

}  // namespace lw
