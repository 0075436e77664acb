#include "eval/case_git.h"

#include "core/file_io.h"
#include "verify/git/libgit2.h"
#include "verify/patch/apply_patch.h"

namespace lw::eval {
namespace fs = std::filesystem;

namespace {

// The largest patch a case may carry.
constexpr std::size_t kMaxPatchBytes = 8 * 1024 * 1024;

// `e` said of case `caseName`.
Error ofCase(Error e, const std::string& caseName) {
  e.message = "case " + caseName + ": " + e.message;
  e.subject = caseName;
  return e;
}

Result<git_oid> resolveCommit(git_repository* repo, const std::string& rev, const std::string& caseName) {
  auto commit = verify::revisionCommit(repo, rev);
  if (!commit) return ofCase(std::move(commit).error(), caseName);
  return *commit;
}

// The patch applied to `base`, committed with no ref pointing at it.
Result<git_oid> commitPatch(git_repository* repo, const git_oid& base, const std::string& patch,
                            const std::string& caseName) {
  // A fixed identity and time: the same case makes the same head commit.
  const verify::CommitIdentity who{"loopwright eval", "eval@loopwright.invalid", 0};
  auto head = verify::commitWithPatch(repo, base, patch, who, "loopwright eval: case " + caseName + "\n");
  if (!head) return ofCase(std::move(head).error(), caseName);
  return *head;
}

Result<std::string> diffOf(git_repository* repo, const git_oid& from, const git_oid& to) {
  auto diff = verify::commitDiff(repo, from, to, /*findRenames=*/false);
  if (!diff) return diff.error();
  return verify::patchText(diff->get());
}

}  // namespace

Result<CaseChange> makeChange(const fs::path& repoDir, const EvalCase& c, const fs::path& caseDir) {
  auto repo = verify::openRepository(repoDir.string());
  if (!repo) return repo.error();
  auto base = resolveCommit(repo->get(), c.base, c.name);
  if (!base) return base.error();
  git_oid head;
  if (!c.head.empty()) {
    auto h = resolveCommit(repo->get(), c.head, c.name);
    if (!h) return h.error();
    head = *h;
  } else {
    auto patch = readBoundedFile((caseDir / c.patchFile).string(), kMaxPatchBytes, ErrorCode::IoError);
    if (!patch) return patch.error();
    auto h = commitPatch(repo->get(), *base, *patch, c.name);
    if (!h) return h.error();
    head = *h;
  }
  auto diff = diffOf(repo->get(), *base, head);
  if (!diff) return diff.error();
  return CaseChange{verify::oidHex(*base), verify::oidHex(head), std::move(*diff)};
}

Result<FixCommit> readFixCommit(const fs::path& repoDir, const std::string& rev) {
  auto repo = verify::openRepository(repoDir.string());
  if (!repo) return repo.error();
  auto fix = resolveCommit(repo->get(), rev, rev);
  if (!fix) return fix.error();
  auto commit = verify::commitFacts(repo->get(), *fix);
  if (!commit) return commit.error();
  if (commit->parents.empty())
    return makeError(ErrorCode::UsageError, "commit " + rev + " has no parent to revert to",
                     "import a commit that fixed something in an earlier one", rev);
  auto diff = diffOf(repo->get(), *fix, commit->parents.front());
  if (!diff) return diff.error();
  return FixCommit{verify::oidHex(*fix), commit->summary, std::move(*diff)};
}

}  // namespace lw::eval
