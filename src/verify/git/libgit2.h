// The one place that talks to libgit2's C API directly: a process-wide init
// guard, owning handles, and the translation of libgit2 errors into lw::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <git2.h>

#include "core/github_reads.h"
#include "core/result.h"

namespace lw::verify {

// Initialises libgit2 once for the process (git_libgit2_init is reference
// counted; we never shut it down because handles may outlive any one caller).
void ensureLibGit2();

// An Error carrying `what` and libgit2's last error text (git_error_last).
Error gitError(ErrorCode code, const std::string& what, const std::string& subject = {});

struct GitDeleter {
  void operator()(git_repository* p) const { git_repository_free(p); }
  void operator()(git_index* p) const { git_index_free(p); }
  void operator()(git_reference* p) const { git_reference_free(p); }
  void operator()(git_reference_iterator* p) const { git_reference_iterator_free(p); }
  void operator()(git_object* p) const { git_object_free(p); }
  void operator()(git_blob* p) const { git_blob_free(p); }
  void operator()(git_config* p) const { git_config_free(p); }
  void operator()(git_signature* p) const { git_signature_free(p); }
  void operator()(git_tree* p) const { git_tree_free(p); }
  void operator()(git_commit* p) const { git_commit_free(p); }
  void operator()(git_tree_entry* p) const { git_tree_entry_free(p); }
  void operator()(git_diff* p) const { git_diff_free(p); }
  void operator()(git_patch* p) const { git_patch_free(p); }
  void operator()(git_remote* p) const { git_remote_free(p); }
  void operator()(git_odb* p) const { git_odb_free(p); }
};
template <class T>
using GitPtr = std::unique_ptr<T, GitDeleter>;

// Opens the repository whose working tree is (or contains) `dir`. Fails with
// IO_ERROR naming `dir` when it is not a non-bare git repository.
Result<GitPtr<git_repository>> openRepository(const std::string& dir);

// Opens the repository at exactly `dir` (its working tree or its git
// directory), never one in a directory above it; IO_ERROR naming `dir` when
// there is none.
Result<GitPtr<git_repository>> openRepositoryAt(const std::string& dir);

// Creates a bare repository in the empty directory `dir` whose object store
// also reads `objectsFrom`'s objects (an alternate) and writes only its own:
// commits made there on top of `objectsFrom`'s leave that repository as it
// was. IO_ERROR naming what could not be made.
Result<GitPtr<git_repository>> initBorrowingRepository(const std::string& dir, git_repository* objectsFrom);

// The URL `repo` pushes to for remote `name` (its pushurl, else its url), a
// relative path resolved from the working tree as git does; "" when the
// remote or its URL is missing.
std::string remotePushUrl(git_repository* repo, const std::string& name);

// What to do about a repository libgit2 could not open, from its error text:
// a repository format extension it does not know (a partial clone's, SHA-256
// object ids) needs another clone; anything else, another directory.
std::string repositoryOpenHint(std::string_view libgit2Message);

// What to do about an index libgit2 could not read, from its error text: a
// split index (core.splitIndex) or a sparse index (index.sparse) carries an
// extension libgit2 does not know, and git can write either whole.
std::string indexReadHint(std::string_view libgit2Message);

// SHA-1 object ids (the only kind both libgit2 1.5 and 1.7 read by default).
inline constexpr std::size_t kOidHexSize = 40;

// Hex of an object id.
std::string oidHex(const git_oid& oid);
// Parses a full hex object id; false when it is not one.
bool parseOid(const std::string& hex, git_oid& out);

// The tree of commit `oid`; IO_ERROR naming the commit when the clone lacks
// it or its tree cannot be read.
Result<GitPtr<git_tree>> commitTree(git_repository* repo, const git_oid& oid);

// What stands at a path of a tree: a file (its blob), nothing, or something
// that is not a file (a directory, a submodule).
struct TreeFile {
  enum class Kind { Missing, NotAFile, Blob };
  Kind kind = Kind::Missing;
  GitPtr<git_blob> blob;  // set for a Blob
  std::string sha;        // the blob's id, for a Blob

  std::uint64_t size() const;
  // The blob's bytes as stored (no filters); empty unless a Blob.
  std::string_view bytes() const;
};

// What is at `path` in `tree`; Missing and NotAFile are the caller's to word.
// Fails with `code`, saying it cannot read `what`, when the entry is a blob
// that cannot be read.
Result<TreeFile> fileInTree(git_repository* repo, git_tree* tree, const std::string& path, ErrorCode code,
                            const std::string& what);

// A diff printed as a unified patch (`git diff` format); IO_ERROR when it
// cannot be printed.
Result<std::string> patchText(git_diff* diff);

// The commit `hex` names: IO_ERROR when it is not a full object id or the
// repository lacks it, with `hint` saying what would bring it.
Result<git_oid> findCommit(git_repository* repo, const std::string& hex, const std::string& hint = {});

// The commit HEAD points at; IO_ERROR when none is checked out.
Result<git_oid> headCommit(git_repository* repo);

// The commit revision `rev` names (git's revision syntax, a tag peeled to
// its commit); IO_ERROR when the repository has no such revision or it names
// no commit.
Result<git_oid> revisionCommit(git_repository* repo, const std::string& rev);

// The tree revision `rev` names (a commit's, a tag's commit's, or a tree);
// IO_ERROR as revisionCommit.
Result<GitPtr<git_tree>> revisionTree(git_repository* repo, const std::string& rev);

// Writes the files of `tree` into the existing directory `dir`, over what is
// there; the repository's working tree and index are left as they were.
// IO_ERROR saying it cannot write `what` (the tree, as the caller names it)
// to `dir` when a file cannot be written.
Status checkoutTreeInto(git_repository* repo, git_tree* tree, const std::string& dir, const std::string& what);

// What a commit says about itself: its subject line and its parents, the
// first parent first.
struct CommitFacts {
  std::string summary;
  std::vector<git_oid> parents;
};
// IO_ERROR when the repository lacks commit `oid`.
Result<CommitFacts> commitFacts(git_repository* repo, const git_oid& oid);

// The author and committer loopwright writes into a commit it makes, and the
// time it says the commit was made (seconds since the epoch, UTC).
struct CommitIdentity {
  std::string name;
  std::string email;
  std::int64_t time = 0;
};

// Commits `tree` with `parent` as its only parent, `who` as author and
// committer; the commit is written to the object store and named by no ref.
// IO_ERROR when the parent is missing or the commit cannot be written.
Result<git_oid> commitTreeOnto(git_repository* repo, const git_oid& parent, git_tree* tree, const CommitIdentity& who,
                               const std::string& message);

// The best common ancestor of commits `a` and `b`; IO_ERROR with `hint` when
// the repository holds none (unrelated histories, a shallow clone's cut).
Result<git_oid> mergeBase(git_repository* repo, const git_oid& a, const git_oid& b, const std::string& hint = {});

// Whether commit `descendant` is `ancestor` or reaches it through its parents.
Result<bool> descendsFrom(git_repository* repo, const git_oid& descendant, const git_oid& ancestor);

// The diff from the tree of commit `from` to the tree of commit `to`; with
// `findRenames`, renames found as git does by default (50% similar).
Result<GitPtr<git_diff>> commitDiff(git_repository* repo, const git_oid& from, const git_oid& to, bool findRenames);

// One file of a diff: how it changed (as GitHub names it: a type change is
// Modified), its paths, and its lines added and removed (nothing counted for
// a binary file).
struct DiffFileStats {
  FileChange change = FileChange::Modified;
  std::string oldPath;
  std::string newPath;
  bool binary = false;
  std::size_t additions = 0;
  std::size_t deletions = 0;
};
std::size_t diffFileCount(git_diff* diff);
// The `index`th file of `diff` (index < diffFileCount).
Result<DiffFileStats> diffFileStats(git_diff* diff, std::size_t index);

}  // namespace lw::verify

namespace lw::verify {

// The bytes a checkout writes for blob `blobHex` at `path` (the repository's
// attributes and libgit2's built-in filters applied). Fails with IO_ERROR
// when the blob is missing.
Result<std::string> blobAsWorkTree(git_repository* repo, const std::string& blobHex, const std::string& path);

}  // namespace lw::verify
