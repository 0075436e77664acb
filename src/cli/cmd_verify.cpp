// `loopwright verify snapshot|check`: the read-only / writable-scope guard on
// its own, for orchestrators that only want this part (docs/verification.md).
#include <ostream>

#include <boost/json/object.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "core/error_json.h"
#include "verify/baseline/baseline_json.h"
#include "verify/check/check.h"

namespace lw::cli {
namespace {

Result<std::uint64_t> number(const Args& args, const std::string& name, std::uint64_t def) {
  auto v = args.value(name);
  if (!v) return def;
  try {
    std::size_t used = 0;
    unsigned long long n = std::stoull(*v, &used);
    if (used == v->size()) return static_cast<std::uint64_t>(n);
  } catch (const std::exception&) {}
  return makeError(ErrorCode::UsageError, "--" + name + " needs a number, not '" + *v + "'",
                   "write --" + name + " 1000");
}

int runSnapshot(const Args& args, Io& io) {
  auto out = args.value("out");
  if (!out)
    return reportError(io, makeError(ErrorCode::UsageError, "--out FILE is required",
                                     "write --out /path/outside/the/repo/baseline.json"));
  verify::BaselineOptions opts;
  auto bytes = number(args, "ignored-budget-bytes", opts.ignoredBudgetBytes);
  if (!bytes) return reportError(io, bytes.error());
  auto files = number(args, "ignored-budget-files", opts.ignoredBudgetFiles);
  if (!files) return reportError(io, files.error());
  opts.ignoredBudgetBytes = *bytes;
  opts.ignoredBudgetFiles = *files;
  opts.storePath = *out + ".store";
  std::string repo = args.value("repo").value_or(".");
  auto baseline = verify::takeBaseline(repo, opts);
  if (!baseline) return reportError(io, baseline.error());
  if (auto st = verify::saveBaseline(*baseline, *out); !st) return reportError(io, st.error());
  if (io.json) {
    boost::json::object o;
    o["baseline"] = *out;
    o["store"] = baseline->storePath;
    o["repository"] = baseline->workTree;
    o["entries"] = baseline->entries.size();
    o["refs"] = baseline->refs.size();
    o["ignoredCapturedFiles"] = baseline->ignoredCapturedFiles;
    o["ignoredCapturedBytes"] = baseline->ignoredCapturedBytes;
    o["notRestorable"] = baseline->notRestorable;
    printJson(io.out, o);
  } else {
    io.out << "baseline of " << baseline->workTree << ": " << baseline->entries.size() << " entries, "
           << baseline->refs.size() << " refs";
    if (baseline->notRestorable > 0)
      io.out << ", " << baseline->notRestorable << " detected only (over the capture budget)";
    io.out << "\nwritten to " << *out << " (captured content in " << baseline->storePath << ")\n";
  }
  return kExitOk;
}

int runCheck(const Args& args, Io& io) {
  auto file = args.value("baseline");
  if (!file)
    return reportError(io, makeError(ErrorCode::UsageError, "--baseline FILE is required",
                                     "take one first with 'loopwright verify snapshot'"));
  std::string roleName = args.value("role").value_or("reviewer");
  auto role = parseRole(roleName);
  if (!role)
    return reportError(io, makeError(ErrorCode::UsageError, "unknown role '" + roleName + "'",
                                     "--role is reviewer, triage or author"));
  auto baseline = verify::loadBaseline(*file);
  if (!baseline) return reportError(io, baseline.error());
  if (auto repo = args.value("repo")) baseline->repoDir = *repo;
  verify::CheckPolicy policy;
  policy.role = *role;
  policy.writableGlobs = args.values("writable");
  policy.protectedGlobs = args.values("protect");
  policy.declaredPaths = args.values("touched");
  policy.cwd = args.value("cwd").value_or("");
  policy.runId = args.value("run").value_or("manual");
  policy.stepName = args.value("step").value_or("check");
  policy.restore = args.flag("restore");
  auto report = verify::check(*baseline, policy);
  if (!report) return reportError(io, report.error());
  if (io.json) {
    boost::json::object o = verify::toJson(*report, *baseline).as_object();
    if (!report->ok()) o["error"] = toJson(verify::toError(*report));
    printJson(io.out, o);
    return report->ok() ? kExitOk : exitCodeFor(*report->violation);
  }
  for (const auto* list : {&report->changes, &report->declared})
    for (const verify::Change& c : *list) {
      io.out << verify::toString(c.kind) << "\t" << verify::toString(c.category) << "\t"
             << (c.area == verify::Area::WorkTree || c.given == c.path ? ""
                                                                       : std::string(verify::toString(c.area)) + ":")
             << c.path;
      if (!c.detail.empty()) io.out << "\t" << c.detail;
      if (c.violation) io.out << "\t" << codeName(*c.violation) << ": " << c.reason;
      if (c.dependency) io.out << "\tdependency manifest";
      io.out << "\n";
    }
  for (const std::string& n : report->notes) io.err << "note: " << n << "\n";
  for (const std::string& f : report->restoreFailures) io.err << "not restored: " << f << "\n";
  if (report->ok()) {
    io.out << (report->changes.empty() ? "no changes" : "changes allowed by the policy") << "\n";
    return kExitOk;
  }
  return reportError(io, verify::toError(*report));
}

}  // namespace

Command verifySnapshotCommand() {
  Command c;
  c.name = "verify snapshot";
  c.summary = "record a repository's state before a step (libgit2 baseline)";
  c.usage = "--out FILE [--repo DIR]";
  c.description =
      "Records HEAD, every ref and the stash, the index, .git/config, hooks, info/ and the\n"
      "working tree including untracked and ignored files. Content a restore needs is\n"
      "copied to FILE.store. Keep FILE outside the repository and out of the step's reach.";
  c.options = {{"repo", "DIR", "the repository's working tree (default: .)"},
               {"out", "FILE", "where to write the baseline"},
               {"ignored-budget-bytes", "N", "capture ignored files up to N bytes in total"},
               {"ignored-budget-files", "N", "capture at most N ignored files"}};
  c.run = runSnapshot;
  return c;
}

Command verifyCheckCommand() {
  Command c;
  c.name = "verify check";
  c.summary = "compare a repository with its baseline and apply the role's policy";
  c.usage = "--baseline FILE --role reviewer|triage|author [--writable GLOB]… [--protect GLOB]… [--restore]";
  c.description =
      "reviewer/triage: any change is READ_ONLY_VIOLATION (exit 5). author: every changed\n"
      "path must match a --writable glob (none given: nothing is writable) and no protected\n"
      "path (.github/**, .loopwright/policies/**, AGENTS.md, CLAUDE.md, and --protect);\n"
      "otherwise PATH_POLICY_VIOLATION (exit 5). --restore keeps the offending changes under\n"
      "refs/loopwright/quarantine/<run>/<step> and puts the repository back as recorded.";
  c.options = {{"repo", "DIR", "the repository as the step saw it (default: as recorded)"},
               {"baseline", "FILE", "written by 'loopwright verify snapshot'"},
               {"role", "ROLE", "reviewer, triage or author (default: reviewer)"},
               {"writable", "GLOB", "author: a path the step may write", true},
               {"protect", "GLOB", "a path no step may write, added to the built-in ones", true},
               {"touched", "PATH", "author: a path the step says it wrote, checked resolved", true},
               {"cwd", "DIR", "the step's working directory, for relative --touched paths"},
               {"run", "ID", "run id for the quarantine ref (default: manual)"},
               {"step", "NAME", "step name for the quarantine ref (default: check)"},
               {"restore", "", "quarantine and undo what the policy refuses"}};
  c.run = runCheck;
  return c;
}

}  // namespace lw::cli
