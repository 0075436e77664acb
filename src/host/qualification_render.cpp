// The human table and the Markdown summary, from the report JSON
// (qualification_report.h).
#include <iomanip>
#include <sstream>

#include <boost/json.hpp>

#include "host/qualification_report.h"

namespace lw::host {
namespace {

namespace json = boost::json;

const json::object& obj(const json::object& o, const char* key) {
  static const json::object empty;
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_object() ? v->get_object() : empty;
}
const json::array& arr(const json::object& o, const char* key) {
  static const json::array empty;
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_array() ? v->get_array() : empty;
}
std::string str(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return "";
  if (v->is_string()) return std::string(v->get_string());
  if (v->is_null()) return "";
  return json::serialize(*v);
}
bool flag(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_bool() && v->get_bool();
}

std::string bytes(const json::value& v) {
  if (!v.is_number()) return "unknown";
  double b = v.to_number<double>();
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << b / (1024.0 * 1024 * 1024) << " GiB";
  return s.str();
}

std::string pad(std::string s, std::size_t n) {
  if (s.size() < n)
    s += std::string(n - s.size(), ' ');
  else
    s += ' ';
  return s;
}

std::string runnerLine(const json::object& r) {
  if (!flag(r, "githubActions") && str(r, "runnerDir").empty()) return "not a GitHub Actions runner";
  std::string env = str(r, "environment");
  std::string eph = str(r, "ephemeral");
  std::string line = "GitHub Actions runner" + (env.empty() ? "" : " (" + env + ")") +
                     (str(r, "name").empty() ? "" : " '" + str(r, "name") + "'");
  line += ", ephemeral: " + (eph.empty() ? std::string("unknown") : (eph == "true" ? "yes" : "no")) + " (" +
          str(r, "ephemeralSource") + ")";
  line += std::string(", job hooks: ") + (flag(r, "hooksInstalled") ? "installed" : "not installed") + " (" +
          str(r, "hooksSource") + ")";
  return line;
}

template <class F>
void eachRow(const json::object& b, F f) {
  for (const char* section : {"capabilities", "networkModes"})
    for (const auto& [name, row] : obj(b, section))
      if (row.is_object())
        f((std::string(section) == "networkModes" ? "network " : "") + std::string(name), row.get_object());
}

}  // namespace

std::string renderTable(const json::object& r) {
  std::ostringstream o;
  const json::object& h = obj(r, "host");
  o << "host: " << str(h, "os") << "/" << str(h, "arch")
    << (flag(h, "supported") ? " (supported)" : " (UNSUPPORTED: " + str(h, "unsupportedReason") + ")") << ", kernel "
    << str(h, "kernel") << ", " << str(h, "libc") << "\n";
  for (const json::value& d : arr(h, "disks"))
    if (d.is_object())
      o << "  disk (" << str(d.get_object(), "role") << ") " << str(d.get_object(), "path") << ": "
        << bytes(d.get_object().contains("freeBytes") ? d.get_object().at("freeBytes") : json::value()) << " free\n";
  const json::object& cg = obj(h, "cgroup");
  o << "  cgroup v" << str(cg, "version") << ": cgroup.kill " << (flag(cg, "killUsable") ? "usable" : "not usable")
    << " (" << str(cg, "reason") << ")\n";
  o << "  user namespace sysctls:";
  for (const auto& [k, v] : obj(h, "userNamespaceSysctls"))
    o << " " << std::string(k) << "=" << (v.is_null() ? "n/a" : json::serialize(v));
  o << "\n  runner: " << runnerLine(obj(h, "runner")) << "\n";
  if (flag(r, "fromCache"))
    o << "  (cached qualification, fingerprint " << str(r, "fingerprint").substr(0, 12) << "; --fresh re-runs it)\n";

  for (const json::value& bv : arr(r, "backends")) {
    if (!bv.is_object()) continue;
    const json::object& b = bv.get_object();
    o << "\n" << str(b, "backend") << ": ";
    if (!flag(b, "available")) {
      o << "unavailable: " << str(b, "unavailableReason") << "\n";
    } else {
      o << "available" << (str(b, "version").empty() ? "" : " (" + str(b, "version") + ")") << ", "
        << arr(b, "canaries").size() << " canaries in " << str(b, "durationMs") << " ms\n";
      o << "  " << pad("capability", 34) << pad("result", 10) << pad("claimed", 10) << pad("observed", 10) << "why\n";
      eachRow(b, [&](const std::string& name, const json::object& row) {
        std::string result = str(row, "status");
        o << "  " << pad(name, 34) << pad(result, 10) << pad(str(obj(row, "claimed"), "status"), 10)
          << pad(str(obj(row, "observed"), "status"), 10) << (result == "enforced" ? "" : str(row, "reason")) << "\n";
      });
    }
    const json::object& u = obj(b, "userNamespaces");
    if (flag(u, "blocked"))
      o << "  user namespaces refused: " << str(u, "cause") << "\n    fix: " << str(u, "hint") << "\n";
    for (const json::value& n : arr(b, "notes"))
      o << "  note: " << (n.is_string() ? std::string(n.get_string()) : "") << "\n";
  }
  const json::object& f = obj(r, "floor");
  o << "\nfloor" << (str(r, "hostConfig").empty() ? " (no host config)" : " of " + str(r, "hostConfig")) << ": ";
  if (flag(f, "satisfied")) {
    o << "satisfied by";
    for (const json::value& b : arr(f, "satisfiedBy")) o << " " << (b.is_string() ? std::string(b.get_string()) : "");
    o << "\n";
  } else {
    o << "NOT satisfied\n";
    for (const json::value& m : arr(f, "missing"))
      o << "  missing: " << (m.is_string() ? std::string(m.get_string()) : "") << "\n";
  }
  return o.str();
}

std::string renderMarkdown(const json::object& r) {
  std::ostringstream o;
  const json::object& h = obj(r, "host");
  const json::object& f = obj(r, "floor");
  o << "## loopwright host qualification: " << (flag(f, "satisfied") ? "floor met" : "floor NOT met") << "\n\n";
  o << "`" << str(h, "os") << "/" << str(h, "arch") << "`, kernel `" << str(h, "kernel") << "`, " << str(h, "libc")
    << ", cgroup v" << str(obj(h, "cgroup"), "version") << "; " << runnerLine(obj(h, "runner"))
    << (flag(r, "fromCache") ? " _(cached)_" : "") << "\n\n";
  for (const json::value& m : arr(f, "missing"))
    if (m.is_string()) o << "- **missing:** " << std::string(m.get_string()) << "\n";
  o << "\n| backend | capability / network mode | result | claimed | observed |\n|---|---|---|---|---|\n";
  for (const json::value& bv : arr(r, "backends")) {
    if (!bv.is_object()) continue;
    const json::object& b = bv.get_object();
    if (!flag(b, "available")) {
      o << "| " << str(b, "backend") << " | — | unavailable: " << str(b, "unavailableReason") << " | | |\n";
      continue;
    }
    eachRow(b, [&](const std::string& name, const json::object& row) {
      o << "| " << str(b, "backend") << " | " << name << " | " << str(row, "status") << " | "
        << str(obj(row, "claimed"), "status") << " | " << str(obj(row, "observed"), "status") << " |\n";
    });
  }
  return o.str();
}

}  // namespace lw::host
