#include "sandbox/gvisor/gvisor_plan.h"

#include <boost/json/array.hpp>

namespace lw::sandbox::gvisor {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

Error planError(std::string message, std::string hint, const std::string& subject = {}) {
  return makeError(ErrorCode::SandboxLaunchFailed, std::move(message), std::move(hint), subject);
}

json::object mountOf(const std::string& type, const std::string& source, const std::string& destination,
                     json::array options) {
  return {{"destination", destination}, {"type", type}, {"source", source}, {"options", std::move(options)}};
}

json::object bindMount(const std::string& source, const std::string& destination, bool writable) {
  return mountOf("bind", source, destination, {"rbind", writable ? "rw" : "ro"});
}

// bwrap's argv, from after the program name to "--", as OCI mounts, root
// symlinks and the working directory.
class Translation {
 public:
  Translation(const bwrap::BwrapPlan& plan, int firstCopyFd) : plan_(plan), firstCopyFd_(firstCopyFd) {}

  Status run(GvisorPlan& out, std::string& cwd) {
    const std::vector<std::string>& a = plan_.argv;
    for (i_ = 1; i_ < a.size() && a[i_] != "--"; ++i_) {
      if (Status s = step(out, cwd); !s) return s;
    }
    out.config["mounts"] = std::move(mounts_);
    return Ok{};
  }

 private:
  const std::string& arg(std::size_t n) { return plan_.argv.at(i_ + n); }

  // One bwrap option at i_; i_ is left on its last argument.
  Status step(GvisorPlan& out, std::string& cwd) {
    const std::string& o = arg(0);
    if (o == "--unshare-all" || o == "--unshare-user" || o == "--disable-userns" || o == "--share-net" ||
        o == "--die-with-parent" || o == "--new-session")
      return Ok{};  // namespaces and the network mode are the spec's and runsc's own (planGvisor)
    if (o == "--cap-drop" || o == "--perms") return skip(1);
    if (o == "--ro-bind" || o == "--bind") {
      mounts_.push_back(bindMount(arg(1), arg(2), o == "--bind"));
      return skip(2);
    }
    if (o == "--file") return copiedFile();
    if (o == "--symlink") {
      out.rootSymlinks.emplace_back(arg(2), arg(1));
      return skip(2);
    }
    if (o == "--proc") return add(mountOf("proc", "proc", arg(1), {}), 1);
    if (o == "--dev") return add(mountOf("tmpfs", "tmpfs", arg(1), {"nosuid", "mode=755"}), 1);
    if (o == "--size") {
      tmpfsSize_ = arg(1);
      return skip(1);
    }
    if (o == "--tmpfs") return tmpfs();
    if (o == "--remount-ro") return remountReadOnly();
    if (o == "--chdir") {
      cwd = arg(1);
      return skip(1);
    }
    return planError("the gVisor planner does not know bwrap's option " + o,
                     "this is a bug of loopwright: report it with the step that was planned", o);
  }
  Status skip(std::size_t n) {
    i_ += n;
    return Ok{};
  }
  Status add(json::object mount, std::size_t n) {
    mounts_.push_back(std::move(mount));
    return skip(n);
  }
  // bwrap copies an /etc file through a descriptor; gVisor binds it read-only.
  Status copiedFile() {
    const std::size_t index = static_cast<std::size_t>(std::stoi(arg(1)) - firstCopyFd_);
    if (index >= plan_.copiedFiles.size())
      return planError("bwrap's plan copies a file it does not name", "this is a bug of loopwright", arg(2));
    mounts_.push_back(bindMount(plan_.copiedFiles[index].string(), arg(2), false));
    return skip(2);
  }
  Status tmpfs() {
    json::array options = {"nosuid", "nodev", "mode=1777"};
    if (!tmpfsSize_.empty()) options.emplace_back("size=" + tmpfsSize_);
    tmpfsSize_.clear();
    return add(mountOf("tmpfs", "tmpfs", arg(1), std::move(options)), 1);
  }
  // The root is read-only in the spec; a tmpfs mask or placeholder is made
  // read-only where it is mounted (bwrap remounts it right after).
  Status remountReadOnly() {
    if (arg(1) == "/") return skip(1);
    for (auto it = mounts_.rbegin(); it != mounts_.rend(); ++it) {
      json::object& m = it->as_object();
      if (m["destination"].as_string() != arg(1)) continue;
      m["options"].as_array().emplace_back("ro");
      return skip(1);
    }
    return planError("bwrap's plan remounts " + arg(1) + " read-only before mounting it", "this is a bug of loopwright",
                     arg(1));
  }

  const bwrap::BwrapPlan& plan_;
  const int firstCopyFd_;
  std::size_t i_ = 0;
  std::string tmpfsSize_;
  json::array mounts_;
};

json::array envList(const StepSpec& spec) {
  json::array env;
  for (const auto& [k, v] : spec.env) env.emplace_back(k + "=" + v);
  return env;
}

json::object rlimit(const char* type, std::int64_t value) { return {{"type", type}, {"hard", value}, {"soft", value}}; }

// Enforced by gVisor's kernel for the step's processes; pids and memory are
// also bounded around runsc by the host (gvisor_backend.cpp).
json::array rlimitsOf(const ResourceLimits& l, std::optional<std::int64_t> addressSpace) {
  // gVisor's kernel counts RLIMIT_NPROC over its own processes only — the
  // step's — and holds it for uid 0 without capabilities too.
  json::array r = {rlimit("RLIMIT_NOFILE", l.openFiles), rlimit("RLIMIT_FSIZE", l.fileSizeBytes),
                   rlimit("RLIMIT_CORE", 0), rlimit("RLIMIT_NPROC", l.pids)};
  if (l.cpuSeconds) r.push_back(rlimit("RLIMIT_CPU", *l.cpuSeconds));
  if (addressSpace) r.push_back(rlimit("RLIMIT_AS", *addressSpace));
  return r;
}

json::object processOf(const StepSpec& spec, const std::string& cwd, std::optional<std::int64_t> addressSpace) {
  json::object caps = {{"bounding", json::array{}},
                       {"effective", json::array{}},
                       {"inheritable", json::array{}},
                       {"permitted", json::array{}},
                       {"ambient", json::array{}}};
  json::array args;
  for (const std::string& a : spec.argv) args.emplace_back(a);
  // uid 0 of gVisor's kernel, without a capability: as root on the host the
  // step's files are root's as on linux-bwrap; rootless, uid 0 is the only
  // id runsc maps, and it is the calling user on the host.
  return {{"terminal", false},
          {"user", {{"uid", 0}, {"gid", 0}}},
          {"args", std::move(args)},
          {"env", envList(spec)},
          {"cwd", cwd},
          {"capabilities", std::move(caps)},
          {"rlimits", rlimitsOf(spec.limits, addressSpace)},
          {"noNewPrivileges", true}};
}

json::object errnoRule(const char* name, json::array args) {
  return {{"names", json::array{name}}, {"action", "SCMP_ACT_ERRNO"}, {"errnoRet", 1}, {"args", std::move(args)}};
}

// Argument `index` is (uid_t)-1 or (gid_t)-1: "leave it as it is".
json::object unchanged(int index) {
  return {{"index", index}, {"value", 4294967295U}, {"valueTwo", 4294967295U}, {"op", "SCMP_CMP_MASKED_EQ"}};
}

// The filter gVisor's kernel applies to the step (--oci-seccomp), besides
// loopwright's own (the container init's). A chown that changes nothing is
// refused: gVisor reports success for it even on a read-only mount, where
// Linux says EROFS, and it would pass for a metadata write. With networkMode
// none, no socket but a unix one (the bridge) can be made at all, as on
// linux-bwrap.
json::object gvisorFilter(NetworkMode network) {
  json::array rules;
  for (const char* name : {"chown", "lchown", "fchown"}) rules.push_back(errnoRule(name, {unchanged(1), unchanged(2)}));
  rules.push_back(errnoRule("fchownat", {unchanged(2), unchanged(3)}));
  if (network == NetworkMode::None)
    rules.push_back(errnoRule("socket", {json::object{{"index", 0}, {"value", 1}, {"op", "SCMP_CMP_NE"}}}));
  return {{"defaultAction", "SCMP_ACT_ALLOW"},
          {"architectures", json::array{"SCMP_ARCH_X86_64", "SCMP_ARCH_AARCH64"}},
          {"syscalls", std::move(rules)}};
}

json::object linuxOf(const StepSpec& spec) {
  json::array namespaces;
  for (const char* ns : {"pid", "network", "ipc", "uts", "mount"}) {
    // --network=host uses the network namespace runsc finds itself in; a
    // new one in the spec would be empty ("Network is unreachable").
    if (spec.network == NetworkMode::AllowOutbound && std::string_view(ns) == "network") continue;
    namespaces.push_back(json::object{{"type", ns}});
  }
  return {{"namespaces", std::move(namespaces)}, {"seccomp", gvisorFilter(spec.network)}};
}

std::vector<std::string> runscFlagsOf(const StepSpec& spec, const GvisorOptions& options) {
  // --network=none is gVisor's netstack with loopback only. allow-outbound
  // is the host's network stack (--network=host), its loopback services
  // included, as linux-bwrap's --share-net.
  std::vector<std::string> flags = {spec.network == NetworkMode::AllowOutbound ? "--network=host" : "--network=none",
                                    "--oci-seccomp"};
  if (options.hostSockets) flags.emplace_back("--host-uds=open");
  return flags;
}

}  // namespace

StepSpec withContainerInit(const StepSpec& spec, const fs::path& init, const fs::path& filterFile) {
  StepSpec s = spec;
  s.argv = {init.string(), filterFile.string(), "--"};
  s.argv.insert(s.argv.end(), spec.argv.begin(), spec.argv.end());
  s.readOnlyPaths.push_back(init);
  s.readOnlyPaths.push_back(filterFile);
  return s;
}

Result<GvisorPlan> planGvisor(const StepSpec& spec, const GvisorOptions& options, const bwrap::PathLookup& lookup) {
  if (!options.rootfs.is_absolute())
    return planError("the gVisor bundle's root " + options.rootfs.string() + " is not an absolute path",
                     "this is a bug of loopwright", options.rootfs.string());
  bwrap::BwrapOptions view;
  view.bwrapPath = "bwrap";
  auto bwrapPlan = bwrap::planBwrap(spec, view, lookup);
  if (!bwrapPlan) return std::move(bwrapPlan).error();

  GvisorPlan plan;
  std::string cwd = "/";
  if (Status s = Translation(*bwrapPlan, view.firstCopyFd).run(plan, cwd); !s) return s.error();
  plan.config["ociVersion"] = "1.0.0";
  plan.config["root"] = {{"path", options.rootfs.string()}, {"readonly", true}};
  plan.config["hostname"] = "loopwright";
  plan.config["process"] = processOf(spec, cwd, options.addressSpace);
  plan.config["linux"] = linuxOf(spec);
  plan.runscFlags = runscFlagsOf(spec, options);
  plan.placeholders = std::move(bwrapPlan->placeholders);
  plan.notes = std::move(bwrapPlan->notes);
  return plan;
}

}  // namespace lw::sandbox::gvisor
