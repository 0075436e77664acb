// `loopwright eval import --commit SHA`: a bug-fixing commit of the
// repository becomes an eval case (docs/evals.md, "Cases from history").
#include <filesystem>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "core/file_io.h"
#include "eval/case_git.h"

namespace lw::cli {
namespace fs = std::filesystem;

namespace {

Status writeCase(const fs::path& dir, const eval::FixCommit& fix, const std::vector<eval::FindingPattern>& expect) {
  std::error_code ec;
  if (fs::exists(dir, ec))
    return makeError(ErrorCode::UsageError, dir.string() + " exists", "give --name another case name", dir.string());
  fs::create_directories(dir, ec);
  if (ec) return makeError(ErrorCode::IoError, "cannot create " + dir.string() + ": " + ec.message());
  if (auto s = writeFileAtomic((dir / "change.patch").string(), fix.revertDiff); !s) return s;
  return writeFileAtomic((dir / "case.yaml").string(), eval::caseYaml(fix, expect, "change.patch"));
}

// A directory name that is also the case's name in reports: [a-z0-9-]{1,63}.
bool isCaseName(const std::string& name) {
  return !name.empty() && name.size() <= 63 &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

int importMain(const Args& args, Io& io) {
  auto rev = args.value("commit");
  if (!rev) return reportError(io, makeError(ErrorCode::UsageError, "--commit is required", "give the fix's SHA"));
  std::error_code ec;
  fs::path repo = fs::canonical(args.value("repo").value_or("."), ec);
  if (ec)
    return reportError(
        io, makeError(ErrorCode::UsageError, "repository " + args.value("repo").value_or(".") + " not found"));
  auto fix = eval::readFixCommit(repo, *rev);
  if (!fix) return reportError(io, fix.error());
  auto expect = eval::expectationsOf(fix->revertDiff);
  if (!expect) return reportError(io, expect.error());
  fs::path cases = args.value("cases") ? fs::path(*args.value("cases")) : repo / ".loopwright" / "evals";
  std::string name = args.value("name").value_or("fix-" + fix->sha.substr(0, 12));
  if (!isCaseName(name))
    return reportError(io,
                       makeError(ErrorCode::UsageError, "'" + name + "' is not a case name", "use a-z, 0-9 and '-'"));
  if (auto s = writeCase(cases / name, *fix, *expect); !s) return reportError(io, s.error());
  io.out << "eval case " << (cases / name).string() << ": base " << fix->sha.substr(0, 12) << ", " << expect->size()
         << " expected finding(s) on the lines the fix touched\n";
  return 0;
}

}  // namespace

Command evalImportCommand() {
  Command c;
  c.name = "eval import";
  c.summary = "make an eval case from a bug-fixing commit: the bug is the fix reverted";
  c.usage = "--commit SHA [--repo DIR] [--cases DIR] [--name NAME]";
  c.description =
      "Writes <cases>/<name>/case.yaml and change.patch: the case's base is the fix, its change the\n"
      "fix reverted, and it expects a finding on the lines the fix touched (docs/evals.md).";
  c.options = {{"commit", "SHA", "the commit that fixed the bug"},
               {"repo", "DIR", "the repository (default .)"},
               {"cases", "DIR", "the cases' directory (default <repo>/.loopwright/evals)"},
               {"name", "NAME", "the case's name (default fix-<12 hex digits>)"}};
  c.run = importMain;
  return c;
}

}  // namespace lw::cli
