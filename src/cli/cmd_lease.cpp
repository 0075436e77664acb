// `loopwright lease claim|renew|release|list`: the ownership leases of
// docs/leases.md, in the host config's store (`leases:`; by default the local
// one in <state dir>/leases), a local one (--store DIR) or etcd (--etcd URL).
// For operators and scripts: inspect who holds what, finish a teardown whose
// holder is gone, or hold a resource from a shell script.
#include <charconv>
#include <ostream>

#include <boost/json.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "cli/policy_context.h"
#include "core/json_text.h"
#include "lease/open_store.h"
#include "lease/transitions.h"

namespace lw::cli {
namespace {

namespace json = boost::json;
using lease::Lease;

constexpr std::uint64_t kMaxTtlSeconds = 7 * 24 * 3600;

// The store a command acts on and the state directory it defaults under.
struct StoreChoice {
  LeaseStoreConfig config;
  std::filesystem::path stateDir;
};

Error storeUsage(std::string message, std::string subject) {
  return makeError(ErrorCode::UsageError, std::move(message), "see `loopwright lease --help` and docs/leases.md",
                   std::move(subject));
}

// --etcd URL [--prefix P] (checked as the host config's `leases:` is).
Result<StoreChoice> etcdChoice(const std::string& endpoint, const Args& args) {
  StoreChoice choice;
  choice.config.store = LeaseStoreKind::Etcd;
  choice.config.endpoint = endpoint;
  choice.config.prefix = args.value("prefix").value_or(choice.config.prefix);
  if (std::string problem = leaseEndpointProblem(endpoint); !problem.empty())
    return storeUsage("--etcd " + problem, "--etcd");
  if (std::string problem = leasePrefixProblem(choice.config.prefix); !problem.empty())
    return storeUsage("--prefix " + problem, "--prefix");
  return choice;
}

// --store DIR, --etcd URL, or else the host config's `leases:`.
Result<StoreChoice> storeChoice(const Args& args, const Environment& env) {
  auto dir = args.value("store");
  auto etcd = args.value("etcd");
  if (dir && etcd) return storeUsage("give --store or --etcd, not both", "--etcd");
  if (args.value("prefix") && !etcd) return storeUsage("--prefix goes with --etcd", "--prefix");
  if (etcd) return etcdChoice(*etcd, args);
  StoreChoice choice;
  if (dir) {
    choice.config.localDir = *dir;
    return choice;
  }
  auto host = loadHostConfigFrom(env);
  if (!host) return host.error();
  return StoreChoice{host->leases, host->stateDir};
}

Result<std::unique_ptr<lease::Store>> chosenStore(const Args& args, const Environment& env) {
  auto choice = storeChoice(args, env);
  if (!choice) return choice.error();
  return lease::openStore(choice->config, choice->stateDir);
}

Result<std::uint64_t> number(const Args& args, const std::string& option, std::uint64_t min, std::uint64_t max) {
  auto text = args.value(option);
  if (!text)
    return makeError(ErrorCode::UsageError, "--" + option + " is required", "see `loopwright lease --help`",
                     "--" + option);
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (ec != std::errc() || end != text->data() + text->size() || n < min || n > max)
    return makeError(ErrorCode::UsageError,
                     "--" + option + " " + *text + " is not a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max),
                     {}, "--" + option);
  return n;
}

Result<std::string> resourceOf(const Args& args) {
  if (args.positionals().size() != 1)
    return makeError(ErrorCode::UsageError, "give exactly one RESOURCE", "see `loopwright lease --help`");
  const std::string& resource = args.positionals()[0];
  if (auto named = lease::validateResourceName(resource); !named) return named.error();
  return resource;
}

Result<std::string> holderOf(const Args& args) {
  auto holder = args.value("holder");
  if (!holder || holder->empty() || holder->size() > 256 || !isValidUtf8(*holder))
    return makeError(ErrorCode::UsageError, "--holder needs 1 to 256 bytes of UTF-8 text",
                     "say who holds it: --holder \"run 12 step fmt on host-a\"", "--holder");
  return *holder;
}

json::object leaseJson(const Lease& l, std::int64_t nowMs) {
  return json::object{{"resource", l.resource},
                      {"phase", lease::phaseName(l.phase)},
                      {"holder", l.holder},
                      {"token", l.token},
                      {"expiresAtMs", l.expiresAtMs},
                      {"expiresAt", l.expiresAtMs > 0 ? lease::formatTimeMs(l.expiresAtMs) : ""},
                      {"expired", l.phase != lease::Phase::Free && lease::isExpired(l, nowMs)},
                      {"claimedAtMs", l.claimedAtMs}};
}

int printLease(Io& io, const std::string& verb, const Lease& l) {
  if (io.json)
    printJson(io.out, leaseJson(l, lease::systemNowMs()));
  else
    io.out << "loopwright: " << verb << " " << l.resource << " (token " << l.token << ")"
           << (l.phase == lease::Phase::Free ? "" : " until " + lease::formatTimeMs(l.expiresAtMs)) << "\n";
  return kExitOk;
}

// The lease a holder names by resource and token (what renew, teardown and
// release compare).
Result<Lease> heldFrom(const Args& args) {
  auto resource = resourceOf(args);
  if (!resource) return resource.error();
  auto token = number(args, "token", 1, UINT64_MAX);
  if (!token) return token.error();
  Lease held;
  held.resource = *resource;
  held.token = *token;
  return held;
}

int runClaim(const Args& args, Io& io) {
  auto resource = resourceOf(args);
  auto holder = resource ? holderOf(args) : Result<std::string>(resource.error());
  if (!holder) return reportError(io, holder.error());
  auto ttl = number(args, "ttl", 1, kMaxTtlSeconds);
  auto store = ttl ? chosenStore(args, io.env) : Result<std::unique_ptr<lease::Store>>(ttl.error());
  if (!store) return reportError(io, store.error());
  auto claimed = (*store)->claim(*resource, *holder, std::chrono::seconds(*ttl));
  if (!claimed) return reportError(io, claimed.error());
  return printLease(io, "claimed", *claimed);
}

int runRenew(const Args& args, Io& io) {
  auto held = heldFrom(args);
  auto ttl = held ? number(args, "ttl", 1, kMaxTtlSeconds) : Result<std::uint64_t>(held.error());
  auto store = ttl ? chosenStore(args, io.env) : Result<std::unique_ptr<lease::Store>>(ttl.error());
  if (!store) return reportError(io, store.error());
  auto renewed = (*store)->renew(*held, std::chrono::seconds(*ttl));
  if (!renewed) return reportError(io, renewed.error());
  return printLease(io, "renewed", *renewed);
}

int runRelease(const Args& args, Io& io) {
  auto held = heldFrom(args);
  auto store = held ? chosenStore(args, io.env) : Result<std::unique_ptr<lease::Store>>(held.error());
  if (!store) return reportError(io, store.error());
  // The marker first, as every teardown: from here on nobody can claim it.
  auto marked = (*store)->beginTeardown(*held);
  if (!marked) return reportError(io, marked.error());
  if (auto released = (*store)->release(*marked); !released) return reportError(io, released.error());
  Lease freed = *marked;
  freed.phase = lease::Phase::Free;
  freed.holder.clear();
  freed.expiresAtMs = freed.claimedAtMs = 0;
  return printLease(io, "released", freed);
}

json::value listJson(const std::string& storeName, const std::vector<lease::ListedRecord>& records,
                     std::int64_t nowMs) {
  json::array rows;
  for (const auto& rec : records) {
    if (rec.lease)
      rows.push_back(leaseJson(*rec.lease, nowMs));
    else
      rows.push_back(json::object{{"resource", rec.resource},
                                  {"phase", "corrupt"},
                                  {"file", rec.file},
                                  {"error", rec.unreadable->message},
                                  {"hint", rec.unreadable->hint}});
  }
  return json::object{{"store", storeName}, {"leases", std::move(rows)}};
}

void listText(std::ostream& out, const std::vector<lease::ListedRecord>& records, std::int64_t nowMs) {
  for (const auto& rec : records) {
    if (!rec.lease) {
      out << rec.resource << "  corrupt  " << rec.unreadable->message << "\n";
      continue;
    }
    const Lease& l = *rec.lease;
    out << l.resource << "  " << lease::phaseName(l.phase) << "  token " << l.token;
    if (l.phase != lease::Phase::Free)
      out << "  " << l.holder << "  " << (lease::isExpired(l, nowMs) ? "expired " : "until ")
          << lease::formatTimeMs(l.expiresAtMs);
    out << "\n";
  }
}

int runList(const Args& args, Io& io) {
  auto choice = storeChoice(args, io.env);
  if (!choice) return reportError(io, choice.error());
  auto records = lease::surveyStore(choice->config, choice->stateDir);
  if (!records) return reportError(io, records.error());
  const std::int64_t now = lease::systemNowMs();
  const std::string name = lease::storeName(choice->config, choice->stateDir);
  if (io.json)
    printJson(io.out, listJson(name, *records, now));
  else if (records->empty())
    io.out << "loopwright: no leases in " << name << "\n";
  else
    listText(io.out, *records, now);
  return kExitOk;
}

std::vector<OptionSpec> storeOptions() {
  return {{"store", "DIR", "a local lease store (default: the host config's `leases:`, else <state dir>/leases)"},
          {"etcd", "URL", "the etcd lease store at this gateway (http only to this machine)"},
          {"prefix", "P", "with --etcd: the key prefix (default /loopwright/leases/)"}};
}

Command leaseCommand(std::string verb, std::string summary, std::string usage, std::string description,
                     std::vector<OptionSpec> options, std::function<int(const Args&, Io&)> run) {
  Command c;
  c.name = "lease " + verb;
  c.summary = std::move(summary);
  c.usage = std::move(usage);
  c.description = std::move(description) +
                  "\nSee docs/leases.md. Exits 7 when the lease is held, being torn down,\n"
                  "unreadable (LEASE_UNAVAILABLE) or no longer the caller's (LEASE_LOST).";
  for (OptionSpec& o : storeOptions()) options.push_back(std::move(o));
  c.options = std::move(options);
  c.maxPositionals = verb == "list" ? 0 : 1;
  c.run = std::move(run);
  return c;
}

}  // namespace

Command leaseClaimCommand() {
  return leaseCommand("claim", "claim an ownership lease (free or expired only)",
                      "RESOURCE --holder TEXT --ttl SECONDS [--store DIR | --etcd URL [--prefix P]]",
                      "Claims RESOURCE for --ttl seconds when it is free or its lease expired; never\n"
                      "takes over a live lease or one being torn down. Prints the fencing token.",
                      {{"holder", "TEXT", "who holds it, in words"}, {"ttl", "SECONDS", "how long the lease lasts"}},
                      runClaim);
}

Command leaseRenewCommand() {
  return leaseCommand(
      "renew", "renew a lease you hold", "RESOURCE --token N --ttl SECONDS [--store DIR | --etcd URL [--prefix P]]",
      "Moves the expiry of the lease with fencing token N to now + --ttl, only\n"
      "while it is active and unexpired.",
      {{"token", "N", "the fencing token of the lease"}, {"ttl", "SECONDS", "how long from now"}}, runRenew);
}

Command leaseReleaseCommand() {
  return leaseCommand("release", "release a lease (teardown marker first)",
                      "RESOURCE --token N [--store DIR | --etcd URL [--prefix P]]",
                      "Marks the lease with fencing token N as tearing down, then frees it. Use it\n"
                      "to finish a teardown whose holder is gone, once the resource is destroyed.",
                      {{"token", "N", "the fencing token of the lease"}}, runRelease);
}

Command leaseListCommand() {
  return leaseCommand("list", "list the leases of the store, corrupt records included",
                      "[--store DIR | --etcd URL [--prefix P]] [--json]",
                      "Every record of the store in name order: phase, token, holder and expiry,\n"
                      "or why it cannot be read (corrupt: inspect and remove it by hand).",
                      {}, runList);
}

}  // namespace lw::cli
