// `loopwright qualify`: what isolation this host really gives, observed by
// live canaries inside each backend, against the admin's floor (exit 3 when
// it is not met). Also the hidden canary mode the canaries run in.
#include <chrono>
#include <fstream>
#include <ostream>

#include <boost/json.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "guard/event.h"
#include "host/canary_program.h"
#include "host/qualification_report.h"
#include "host/qualify.h"

namespace lw::cli {
namespace {

Result<host::QualifyOptions> optionsFrom(const Args& a) {
  host::QualifyOptions o;
  for (const std::string& b : a.values("backend")) {
    auto id = parseBackendId(b);
    if (!id)
      return makeError(ErrorCode::UsageError, "unknown backend '" + b + "'",
                       "one of macos-seatbelt, linux-bwrap, linux-landlock, linux-gvisor, docker, direct-dedicated");
    o.backends.push_back(*id);
  }
  o.image = a.value("image");
  o.fresh = a.flag("fresh");
  o.runnerDir = a.value("runner-dir").value_or("");
  o.binary = host::thisBinary();
  return o;
}

int runQualify(const Args& a, Io& io) {
  if (auto canary = a.value("canary")) return host::runCanary(*canary, a.command());
  auto options = optionsFrom(a);
  if (!options) return reportError(io, options.error());
  const auto started = std::chrono::steady_clock::now();
  auto result = host::qualifyThisHost(io.env, *options);
  if (!result) return reportError(io, result.error());
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  result->report["elapsedMs"] = elapsed;

  std::optional<std::string> summary = a.value("summary");
  if (!summary) summary = io.env.get("GITHUB_STEP_SUMMARY");
  if (summary && !summary->empty()) {
    std::ofstream out(*summary, std::ios::app);  // the step summary is shared: append
    out << host::renderMarkdown(result->report) << "\n";
    if (!out) io.err << "loopwright: warning: could not write the summary to " << *summary << "\n";
  }
  if (io.json) {
    printJson(io.out, result->report);
  } else {
    io.out << host::renderTable(result->report) << "\n"
           << (result->report.at("fromCache").as_bool() ? "cached" : "fresh") << " qualification in " << elapsed
           << " ms; " << result->cacheNote << "\n";
  }
  if (result->satisfied) return kExitOk;
  Io text{io.out, io.err, io.env, false};
  if (io.json) return kExitSandbox;  // the report on stdout says what is missing
  const Error unmet = host::floorError(result->report);
  io.err << guard::blockerLine(unmet.message, "nothing ran", unmet.hint) << "\n";
  return reportError(text, unmet);
}

}  // namespace

Command qualifyCommand() {
  Command c;
  c.name = "qualify";
  c.summary = "qualify this host: what each backend enforces, observed by live canaries";
  c.usage = "[--json] [--summary FILE] [--backend B]... [--fresh]";
  c.description =
      "Reports host facts (platform, kernel, libc, disk, cgroups, GitHub runner) and, per\n"
      "backend, each capability and network mode as claimed by its probe and as observed by\n"
      "a canary run inside the real sandbox; a capability is enforced only if its canary was\n"
      "blocked. Exits 0 when the host config's floor is met, 3 when it is not. A success is\n"
      "cached in the state dir under a fingerprint of the kernel, the backend binaries,\n"
      "loopwright and the host config; --fresh ignores the cache. With --summary FILE (or\n"
      "GITHUB_STEP_SUMMARY) a Markdown summary is appended.";
  c.options = {
      {"summary", "FILE", "append a Markdown summary (default: $GITHUB_STEP_SUMMARY when set)"},
      {"backend", "B", "qualify only this backend", true},
      {"fresh", "", "ignore the cached qualification"},
      {"image", "REF", "a pinned image for the docker canaries (default: a runtime profile's)"},
      {"runner-dir", "DIR", "the GitHub runner's directory (default: found from RUNNER_TEMP)"},
      {"canary", "CASE", "internal: run one canary (inside a sandbox)"},
  };
  c.takesCommand = true;
  c.run = runQualify;
  return c;
}

}  // namespace lw::cli
