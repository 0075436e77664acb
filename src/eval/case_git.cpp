#include "eval/case_git.h"

#include "core/file_io.h"
#include "verify/git/libgit2.h"
#include "verify/patch/apply_patch.h"

namespace lw::eval {
namespace fs = std::filesystem;
using verify::GitPtr;

namespace {

// The largest patch a case may carry.
constexpr std::size_t kMaxPatchBytes = 8 * 1024 * 1024;

Result<git_oid> resolveCommit(git_repository* repo, const std::string& rev, const std::string& caseName) {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, rev.c_str()) != 0)
    return verify::gitError(ErrorCode::IoError, "case " + caseName + ": no revision '" + rev + "'", caseName);
  GitPtr<git_object> obj(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, obj.get(), GIT_OBJECT_COMMIT) != 0)
    return verify::gitError(ErrorCode::IoError, "case " + caseName + ": '" + rev + "' is not a commit", caseName);
  GitPtr<git_object> commit(peeled);
  return *git_object_id(commit.get());
}

// The patch applied to `base`, committed with no ref pointing at it.
Result<git_oid> commitPatch(git_repository* repo, const git_oid& base, const std::string& patch,
                            const std::string& caseName) {
  auto baseTree = verify::commitTree(repo, base);
  if (!baseTree) return baseTree.error();
  auto tree = verify::treeWithPatch(repo, baseTree->get(), patch);
  if (!tree) return makeError(ErrorCode::IoError, "case " + caseName + ": " + tree.error().message, "", caseName);
  git_commit* parentRaw = nullptr;
  if (git_commit_lookup(&parentRaw, repo, &base) != 0)
    return verify::gitError(ErrorCode::IoError, "case " + caseName + ": base commit not readable", caseName);
  GitPtr<git_commit> parent(parentRaw);
  git_signature* sigRaw = nullptr;
  // A fixed identity and time: the same case makes the same head commit.
  if (git_signature_new(&sigRaw, "loopwright eval", "eval@loopwright.invalid", 0, 0) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot make a signature");
  GitPtr<git_signature> sig(sigRaw);
  const git_commit* parents[] = {parent.get()};
  git_oid head;
  const std::string message = "loopwright eval: case " + caseName + "\n";
  if (git_commit_create(&head, repo, nullptr, sig.get(), sig.get(), nullptr, message.c_str(), tree->get(), 1,
                        parents) != 0)
    return verify::gitError(ErrorCode::IoError, "case " + caseName + ": cannot commit the patch", caseName);
  return head;
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
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo->get(), &*fix) != 0)
    return verify::gitError(ErrorCode::IoError, "commit " + rev + " not readable", rev);
  GitPtr<git_commit> commit(raw);
  if (git_commit_parentcount(commit.get()) == 0)
    return makeError(ErrorCode::UsageError, "commit " + rev + " has no parent to revert to",
                     "import a commit that fixed something in an earlier one", rev);
  const char* summary = git_commit_summary(commit.get());
  auto diff = diffOf(repo->get(), *fix, *git_commit_parent_id(commit.get(), 0));
  if (!diff) return diff.error();
  return FixCommit{verify::oidHex(*fix), summary ? summary : "", std::move(*diff)};
}

}  // namespace lw::eval
