// Qualification -> JSON (qualification_report.h).
#include <boost/json.hpp>

#include "host/qualification_report.h"

namespace lw::host {
namespace {

namespace json = boost::json;
using sandbox::SupportStatus;

json::object status(const SupportStatus& s) {
  return {{"status", std::string(sandbox::toString(s.support))}, {"reason", s.reason}};
}

template <class Key>
json::object rows(const std::map<Key, SupportStatus>& result, const std::map<Key, SupportStatus>& claimed,
                  const std::map<Key, SupportStatus>& observed) {
  json::object o;
  for (const auto& [k, r] : result) {
    json::object row = status(r);
    auto c = claimed.find(k);
    auto ob = observed.find(k);
    row["claimed"] =
        c != claimed.end() ? status(c->second) : json::object{{"status", "absent"}, {"reason", "not claimed"}};
    row["observed"] =
        ob != observed.end() ? status(ob->second) : json::object{{"status", "absent"}, {"reason", "not observed"}};
    o[std::string(toString(k))] = std::move(row);
  }
  return o;
}

json::value optionalLong(const std::optional<long>& v) { return v ? json::value(*v) : json::value(nullptr); }

}  // namespace

json::object toJson(const HostFacts& h) {
  json::array disks;
  for (const DiskFacts& d : h.disks)
    disks.push_back({{"role", d.role},
                     {"path", d.path},
                     {"freeBytes", d.freeBytes ? json::value(*d.freeBytes) : json::value(nullptr)},
                     {"error", d.error}});
  const RunnerFacts& r = h.runner;
  return {{"os", h.platform.os},
          {"arch", h.platform.arch},
          {"supported", h.platform.supported},
          {"unsupportedReason", h.platform.unsupportedReason},
          {"kernel", h.platform.kernel},
          {"libc", h.platform.libc},
          {"disks", std::move(disks)},
          {"cgroup",
           {{"version", h.cgroup.version},
            {"ownCgroup", h.cgroup.ownCgroup},
            {"killUsable", h.cgroup.killUsable},
            {"reason", h.cgroup.killReason}}},
          {"userNamespaceSysctls",
           {{"kernel.apparmor_restrict_unprivileged_userns", optionalLong(h.userns.apparmorRestrictUnprivilegedUserns)},
            {"kernel.unprivileged_userns_clone", optionalLong(h.userns.unprivilegedUsernsClone)},
            {"user.max_user_namespaces", optionalLong(h.userns.maxUserNamespaces)}}},
          {"runner",
           {{"githubActions", r.actions},
            {"environment", r.environment},
            {"name", r.name},
            {"runnerDir", r.runnerDir},
            {"ephemeral", r.ephemeral ? json::value(*r.ephemeral) : json::value(nullptr)},
            {"ephemeralSource", r.ephemeralSource},
            {"hooksInstalled", r.hooksInstalled},
            {"hooksSource", r.hooksSource}}}};
}

json::object toJson(const Qualification& q) {
  json::array backends;
  for (const BackendQualification& b : q.backends) {
    json::array canaries, notes;
    for (const CanaryRecord& c : b.canaries)
      canaries.push_back({{"target", c.target},
                          {"attempt", c.attempt},
                          {"expect", c.expectBlocked ? "blocked" : "works"},
                          {"ran", c.ran},
                          {"held", c.held},
                          {"evidence", c.evidence}});
    for (const std::string& n : b.notes) notes.push_back(json::string(n));
    json::object o{{"backend", std::string(toString(b.claimed.backend))},
                   {"available", b.claimed.available},
                   {"unavailableReason", b.claimed.unavailableReason},
                   {"version", b.claimed.version},
                   {"capabilities", rows(b.result, b.claimed.capabilities, b.observed)},
                   {"networkModes", rows(b.resultNetwork, b.claimed.networkModes, b.observedNetwork)},
                   {"canaries", std::move(canaries)},
                   {"notes", std::move(notes)},
                   {"durationMs", b.durationMs}};
    if (b.userns)
      o["userNamespaces"] = {{"blocked", b.userns->blocked}, {"cause", b.userns->cause}, {"hint", b.userns->hint}};
    backends.push_back(std::move(o));
  }
  json::array missing, by;
  for (const std::string& m : q.verdict.missing) missing.push_back(json::string(m));
  for (BackendId id : q.verdict.satisfiedBy) by.push_back(json::string(toString(id)));
  return {
      {"schemaVersion", q.schemaVersion},
      {"loopwrightVersion", q.loopwrightVersion},
      {"fromCache", q.fromCache},
      {"fingerprint", q.fingerprint},
      {"qualifiedAt", q.qualifiedAt},
      {"durationMs", q.durationMs},
      {"hostConfig", q.hostConfigFile.empty() ? json::value(nullptr) : json::value(q.hostConfigFile)},
      {"host", toJson(q.facts)},
      {"backends", std::move(backends)},
      {"floor",
       {{"satisfied", q.verdict.satisfied},
        {"missing", std::move(missing)},
        {"satisfiedBy", std::move(by)},
        {"isolationUnavailable", q.verdict.isolationUnavailable ? json::value(toString(*q.verdict.isolationUnavailable))
                                                                : json::value(nullptr)}}}};
}

bool floorSatisfied(const json::object& report) {
  const json::value* f = report.if_contains("floor");
  if (f == nullptr || !f->is_object()) return false;
  const json::value* s = f->get_object().if_contains("satisfied");
  return s != nullptr && s->is_bool() && s->get_bool();
}

Error floorError(const json::object& report) {
  std::vector<Diagnostic> missing;
  std::string unavailableLevel;
  if (const auto* f = report.if_contains("floor"); f && f->is_object()) {
    if (const auto* m = f->get_object().if_contains("missing"); m && m->is_array())
      for (const auto& v : m->get_array())
        if (v.is_string()) missing.push_back({Location{}, std::string(v.get_string()), ""});
    if (const auto* u = f->get_object().if_contains("isolationUnavailable"); u && u->is_string())
      unavailableLevel = std::string(u->get_string());
  }
  const std::string what = "this host does not meet the floor: " +
                           (missing.empty() ? std::string("see the report") : missing.front().message);
  // No host fixes a level no backend of this version gives: the floor must change.
  Error e = unavailableLevel.empty()
                ? makeError(ErrorCode::SandboxCapabilityInsufficient, what,
                            "README, 'Runner admins: qualifying a host', lists the fixes", "qualify")
                : makeError(ErrorCode::IsolationUnavailable, what,
                            "install what gives " + unavailableLevel +
                                " (L3: gVisor's runsc, docs/isolation-levels.md; L2: a Docker engine and a pinned "
                                "runtime profile) and qualify it, or lower floor.minIsolation in the host config",
                            "qualify");
  if (missing.size() > 1) e.diagnostics = std::move(missing);
  return e;
}

}  // namespace lw::host
