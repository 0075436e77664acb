#include "sandbox/docker/engine_probe.h"

#include <map>
#include <optional>

namespace lw::sandbox::docker {
namespace {

// "name=seccomp,profile=default" -> {name: seccomp, profile: default}
std::map<std::string, std::string> parseOption(const std::string& option) {
  std::map<std::string, std::string> out;
  std::size_t start = 0;
  while (start <= option.size()) {
    const std::size_t comma = std::min(option.find(',', start), option.size());
    const std::string part = option.substr(start, comma - start);
    const std::size_t eq = part.find('=');
    if (eq != std::string::npos) out[part.substr(0, eq)] = part.substr(eq + 1);
    start = comma + 1;
  }
  return out;
}

std::string stringField(const boost::json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

// What the engine's security options say: rootless, and the seccomp profile
// ("" when the engine reports no seccomp support).
struct EngineSecurity {
  bool rootless = false;
  std::string seccompProfile;
};

EngineSecurity securityOf(const EngineFacts& facts) {
  EngineSecurity s;
  for (const auto& option : facts.securityOptions) {
    auto fields = parseOption(option);
    if (fields["name"] == "rootless") s.rootless = true;
    if (fields["name"] == "seccomp") s.seccompProfile = fields.count("profile") ? fields["profile"] : "default";
  }
  return s;
}

// Why the backend cannot launch anything on this engine, or nothing.
std::optional<std::string> unavailableReason(const EngineFacts& facts) {
  if (!facts.reachable)
    return facts.unreachableReason + " (note: whoever can use a rootful Docker socket is root on that host)";
  if (!facts.initInstalled)
    return "loopwright-container-init is not installed beside loopwright (" + facts.initBinary + ")";
  return std::nullopt;
}

void addCapabilities(ProbeReport& report, const EngineSecurity& security) {
  using C = Capability;
  report.capabilities[C::FilesystemReadContainment] = {Support::Enforced,
                                                       "the container sees its image and the step's bound trees only; "
                                                       "denied paths inside them are masked"};
  report.capabilities[C::FilesystemWriteContainment] = {
      Support::Enforced,
      "read-only root filesystem; only the writable scope and the out dir are "
      "bound writable, /tmp is a private tmpfs"};
  report.capabilities[C::ProtectedPathReadOnlyMask] = {
      Support::Enforced,
      "protected paths are re-bound read-only over writable binds, a missing one "
      "masked by an empty read-only directory, the directories above pinned as "
      "mount points (no rename, replace or hard link across)"};
  report.capabilities[C::NetworkIsolation] = {
      Support::Enforced,
      "NetworkMode none: the container's own network namespace; no new socket "
      "(the bridge arrives connected), so no unix socket in the view is reachable"};
  report.capabilities[C::ProcessTreeCleanup] = {Support::Enforced,
                                                "the container's pid namespace dies with it; the container is removed "
                                                "when the step returns"};
  // loopwright-container-init installs loopwright's own filter before the
  // step starts, whatever the engine's profile is (an unconfined one too).
  if (security.seccompProfile.empty())
    report.capabilities[C::SyscallFiltering] = {Support::Absent, "the engine reports no seccomp support"};
  else
    report.capabilities[C::SyscallFiltering] = {Support::Enforced,
                                                "loopwright's filter, installed by its container init, under the "
                                                "engine's seccomp profile '" +
                                                    security.seccompProfile + "'"};
}

void addNetworkModes(ProbeReport& report, bool hasBridgeNetwork) {
  report.networkModes[NetworkMode::None] = {Support::Enforced, "NetworkMode none: only the container's own loopback"};
  report.networkModes[NetworkMode::LoopbackOnly] = {Support::Enforced,
                                                    "NetworkMode none: the container's own loopback, not the host's"};
  report.networkModes[NetworkMode::AllowList] = {
      Support::Enforced,
      "NetworkMode none: the container's own loopback, whose one way out is the egress relay "
      "on 127.0.0.1:3128 to the step's proxy's bound socket, started before loopwright's "
      "filter refuses the step new unix sockets"};
  if (hasBridgeNetwork)
    report.networkModes[NetworkMode::AllowOutbound] = {
        Support::Partial,
        "bridge network: services on the host's bridge address and cloud "
        "metadata addresses stay reachable"};
  else
    report.networkModes[NetworkMode::AllowOutbound] = {Support::Absent,
                                                       "the engine has no bridge network (dockerd --bridge=none)"};
}

}  // namespace

ProbeReport classifyEngine(const EngineFacts& facts) {
  ProbeReport report;
  report.backend = BackendId::Docker;
  if (auto why = unavailableReason(facts)) {
    report.available = false;
    report.unavailableReason = *why;
    markAllAbsent(report, facts.reachable ? *why : "no Docker engine");
    return report;
  }
  const EngineSecurity security = securityOf(facts);
  report.available = true;
  report.version = "docker " + facts.version + " (API " + facts.apiVersion + ", " +
                   (security.rootless ? "rootless" : "rootful: access to its socket is root-equivalent") + ")";
  addCapabilities(report, security);
  addNetworkModes(report, facts.hasBridgeNetwork);
  return report;
}

EngineFacts observeEngine(EngineClient& client, const std::string& socketPath) {
  EngineFacts facts;
  facts.socketPath = socketPath;
  auto fail = [&](const Error& e) {
    facts.reachable = false;
    facts.unreachableReason = e.message;
    return facts;
  };
  if (auto st = client.ping(); !st) return fail(st.error());
  auto version = client.version();
  if (!version) return fail(version.error());
  auto info = client.info();
  if (!info) return fail(info.error());
  auto bridge = client.hasNetwork("bridge");
  if (!bridge) return fail(bridge.error());
  facts.reachable = true;
  facts.version = stringField(*version, "Version");
  facts.apiVersion = stringField(*version, "ApiVersion");
  if (const auto* opts = info->if_contains("SecurityOptions"); opts != nullptr && opts->is_array())
    for (const auto& o : opts->as_array())
      if (o.is_string()) facts.securityOptions.emplace_back(o.as_string());
  facts.hasBridgeNetwork = *bridge;
  return facts;
}

std::string engineIdentity(const EngineFacts& facts) {
  return facts.socketPath + " " + (facts.reachable ? facts.version + " api " + facts.apiVersion : "unreachable");
}

std::vector<std::string> engineNotes(const EngineFacts& facts) {
  if (!facts.reachable) return {};
  bool rootless = false;
  for (const std::string& o : facts.securityOptions) rootless = rootless || o.find("rootless") != std::string::npos;
  if (rootless)
    return {"rootless engine: access to " + facts.socketPath + " gives the engine's user's privileges, not root's"};
  return {"rootful engine: whoever can use " + facts.socketPath +
          " is root-equivalent on this host (it can start a privileged container); keep the socket "
          "out of every step's view"};
}

}  // namespace lw::sandbox::docker
