#include "verify/git/libgit2.h"

#include <filesystem>
#include <mutex>

namespace lw::verify {

void ensureLibGit2() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

Error gitError(ErrorCode code, const std::string& what, const std::string& subject) {
  const git_error* last = git_error_last();
  std::string detail = last != nullptr && last->message != nullptr ? last->message : "unknown";
  return makeError(code, what + ": " + detail, "", subject);
}

Result<GitPtr<git_repository>> openRepository(const std::string& dir) {
  ensureLibGit2();
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, dir.c_str(), 0, nullptr) != 0) {
    Error e = gitError(ErrorCode::IoError, "cannot open a git repository at '" + dir + "'", dir);
    e.hint = repositoryOpenHint(e.message);
    return e;
  }
  GitPtr<git_repository> owned(repo);
  if (git_repository_is_bare(repo) != 0)
    return makeError(ErrorCode::IoError, "'" + dir + "' is a bare repository", "verification needs a working tree",
                     dir);
  return owned;
}

Result<GitPtr<git_repository>> openRepositoryAt(const std::string& dir) {
  ensureLibGit2();
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    return gitError(ErrorCode::IoError, "cannot open a git repository at '" + dir + "'", dir);
  return GitPtr<git_repository>(repo);
}

Result<GitPtr<git_repository>> initBorrowingRepository(const std::string& dir, git_repository* objectsFrom) {
  ensureLibGit2();
  git_repository* raw = nullptr;
  if (git_repository_init(&raw, dir.c_str(), /*is_bare=*/1) != 0)
    return gitError(ErrorCode::IoError, "cannot create a repository", dir);
  GitPtr<git_repository> repo(raw);
  git_odb* rawOdb = nullptr;
  if (git_repository_odb(&rawOdb, raw) != 0) return gitError(ErrorCode::IoError, "cannot open the object store", dir);
  GitPtr<git_odb> odb(rawOdb);
  const std::string objects = (std::filesystem::path(git_repository_commondir(objectsFrom)) / "objects").string();
  if (git_odb_add_disk_alternate(odb.get(), objects.c_str()) != 0)
    return gitError(ErrorCode::IoError, "cannot read the objects of " + objects, objects);
  return repo;
}

std::string remotePushUrl(git_repository* repo, const std::string& name) {
  git_remote* raw = nullptr;
  if (git_remote_lookup(&raw, repo, name.c_str()) != 0) return "";
  GitPtr<git_remote> remote(raw);
  const char* url = git_remote_pushurl(raw) ? git_remote_pushurl(raw) : git_remote_url(raw);
  if (!url) return "";
  // git resolves a relative path remote ("../x.git") from the working tree.
  if (url[0] == '.' && git_repository_workdir(repo))
    return (std::filesystem::path(git_repository_workdir(repo)) / url).lexically_normal().string();
  return url;
}

std::string repositoryOpenHint(std::string_view libgit2Message) {
  if (libgit2Message.find("extensions.partialclone") != std::string_view::npos)
    return "this is a partial clone (extensions.partialclone), which libgit2 cannot open: "
           "clone without --filter (actions/checkout: leave `filter` unset)";
  if (libgit2Message.find("extensions.objectformat") != std::string_view::npos)
    return "the repository uses SHA-256 object ids (extensions.objectformat), which libgit2 "
           "cannot open: verification cannot run on it";
  constexpr std::string_view kUnsupported = "unsupported extension name ";
  if (auto at = libgit2Message.find(kUnsupported); at != std::string_view::npos)
    return "the repository uses " + std::string(libgit2Message.substr(at + kUnsupported.size())) +
           ", a repository format libgit2 cannot open: verification needs a clone without it";
  return "pass --repo the working tree of a git repository";
}

std::string indexReadHint(std::string_view libgit2Message) {
  if (libgit2Message.find("'link'") != std::string_view::npos)
    return "the index is split (core.splitIndex), which libgit2 cannot read: "
           "`git update-index --no-split-index` writes it whole, and "
           "`git config core.splitIndex false` keeps it so";
  if (libgit2Message.find("'sdir'") != std::string_view::npos)
    return "the index is sparse (index.sparse), which libgit2 cannot read: "
           "`git sparse-checkout init --no-sparse-index` writes it whole";
  return "`git status` in the repository says whether git itself can read the index";
}

std::string oidHex(const git_oid& oid) {
  char buf[kOidHexSize + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

bool parseOid(const std::string& hex, git_oid& out) {
  return hex.size() == kOidHexSize && git_oid_fromstrn(&out, hex.data(), hex.size()) == 0;
}

Result<GitPtr<git_tree>> commitTree(git_repository* repo, const git_oid& oid) {
  git_commit* rawCommit = nullptr;
  if (git_commit_lookup(&rawCommit, repo, &oid) != 0)
    return gitError(ErrorCode::IoError, "commit " + oidHex(oid) + " is not in the clone");
  GitPtr<git_commit> commit(rawCommit);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, commit.get()) != 0)
    return gitError(ErrorCode::IoError, "cannot read the tree of " + oidHex(oid));
  return GitPtr<git_tree>(tree);
}

std::uint64_t TreeFile::size() const { return blob ? static_cast<std::uint64_t>(git_blob_rawsize(blob.get())) : 0; }

std::string_view TreeFile::bytes() const {
  if (!blob) return {};
  return {static_cast<const char*>(git_blob_rawcontent(blob.get())), static_cast<std::size_t>(size())};
}

Result<TreeFile> fileInTree(git_repository* repo, git_tree* tree, const std::string& path, ErrorCode code,
                            const std::string& what) {
  TreeFile file;
  git_tree_entry* rawEntry = nullptr;
  if (git_tree_entry_bypath(&rawEntry, tree, path.c_str()) != 0) return file;
  GitPtr<git_tree_entry> entry(rawEntry);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) {
    file.kind = TreeFile::Kind::NotAFile;
    return file;
  }
  git_blob* rawBlob = nullptr;
  if (git_blob_lookup(&rawBlob, repo, git_tree_entry_id(entry.get())) != 0)
    return gitError(code, "cannot read " + what, what);
  file.kind = TreeFile::Kind::Blob;
  file.blob.reset(rawBlob);
  file.sha = oidHex(*git_tree_entry_id(entry.get()));
  return file;
}

Result<std::string> patchText(git_diff* diff) {
  git_buf buf = GIT_BUF_INIT;
  if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) != 0)
    return gitError(ErrorCode::IoError, "cannot print the diff");
  std::string text(buf.ptr, buf.size);
  git_buf_dispose(&buf);
  return text;
}

Result<git_oid> findCommit(git_repository* repo, const std::string& hex, const std::string& hint) {
  git_oid oid;
  if (!parseOid(hex, oid)) return makeError(ErrorCode::IoError, "'" + hex + "' is not a commit id");
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) != 0) {
    Error e = gitError(ErrorCode::IoError, "commit " + hex + " is not in the clone");
    e.hint = hint;
    return e;
  }
  GitPtr<git_commit> commit(raw);
  return oid;
}

Result<git_oid> headCommit(git_repository* repo) {
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, "HEAD") != 0)
    return gitError(ErrorCode::IoError, "the clone has no commit checked out");
  return oid;
}

Result<git_oid> mergeBase(git_repository* repo, const git_oid& a, const git_oid& b, const std::string& hint) {
  git_oid base;
  if (git_merge_base(&base, repo, &a, &b) != 0) {
    Error e = gitError(ErrorCode::IoError, oidHex(a) + " and " + oidHex(b) + " have no common ancestor");
    e.hint = hint;
    return e;
  }
  return base;
}

Result<bool> descendsFrom(git_repository* repo, const git_oid& descendant, const git_oid& ancestor) {
  if (git_oid_equal(&descendant, &ancestor)) return true;
  int rc = git_graph_descendant_of(repo, &descendant, &ancestor);
  if (rc < 0) return gitError(ErrorCode::IoError, "cannot walk the history of " + oidHex(descendant));
  return rc == 1;
}

Result<GitPtr<git_diff>> commitDiff(git_repository* repo, const git_oid& from, const git_oid& to, bool findRenames) {
  auto fromTree = commitTree(repo, from);
  if (!fromTree) return fromTree.error();
  auto toTree = commitTree(repo, to);
  if (!toTree) return toTree.error();
  const std::string range = oidHex(from) + ".." + oidHex(to);
  git_diff* raw = nullptr;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  if (git_diff_tree_to_tree(&raw, repo, fromTree->get(), toTree->get(), &options) != 0)
    return gitError(ErrorCode::IoError, "cannot diff " + range);
  GitPtr<git_diff> diff(raw);
  if (!findRenames) return diff;
  git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
  find.flags = GIT_DIFF_FIND_RENAMES;  // git's default (diff.renames = true), 50% similarity
  if (git_diff_find_similar(diff.get(), &find) != 0)
    return gitError(ErrorCode::IoError, "cannot detect renames in " + range);
  return diff;
}

namespace {

FileChange changeOf(git_delta_t status) {
  switch (status) {
    case GIT_DELTA_ADDED: return FileChange::Added;
    case GIT_DELTA_DELETED: return FileChange::Removed;
    case GIT_DELTA_RENAMED: return FileChange::Renamed;
    case GIT_DELTA_COPIED: return FileChange::Copied;
    default: return FileChange::Modified;
  }
}

}  // namespace

std::size_t diffFileCount(git_diff* diff) { return git_diff_num_deltas(diff); }

Result<DiffFileStats> diffFileStats(git_diff* diff, std::size_t index) {
  git_patch* raw = nullptr;
  if (git_patch_from_diff(&raw, diff, index) != 0) return gitError(ErrorCode::IoError, "cannot read a file's changes");
  GitPtr<git_patch> patch(raw);
  const git_diff_delta* delta = git_patch_get_delta(patch.get());
  DiffFileStats f;
  f.change = changeOf(delta->status);
  f.oldPath = delta->old_file.path != nullptr ? delta->old_file.path : "";
  f.newPath = delta->new_file.path != nullptr ? delta->new_file.path : "";
  f.binary = (delta->flags & GIT_DIFF_FLAG_BINARY) != 0;
  std::size_t context = 0;
  if (git_patch_line_stats(&context, &f.additions, &f.deletions, patch.get()) != 0)
    return gitError(ErrorCode::IoError, "cannot count the changes of " + (f.newPath.empty() ? f.oldPath : f.newPath));
  return f;
}

}  // namespace lw::verify

namespace lw::verify {

Result<std::string> blobAsWorkTree(git_repository* repo, const std::string& blobHex, const std::string& path) {
  git_oid id;
  if (!parseOid(blobHex, id)) return makeError(ErrorCode::IoError, "invalid blob id '" + blobHex + "'", "", path);
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repo, &id) != 0) return gitError(ErrorCode::IoError, "cannot read blob " + blobHex, path);
  GitPtr<git_blob> blob(raw);
  git_blob_filter_options opts;
  git_blob_filter_options_init(&opts, GIT_BLOB_FILTER_OPTIONS_VERSION);
  opts.flags = 0;  // no binary sniffing: a checkout filters binaries too when told to
  git_buf out = GIT_BUF_INIT;
  if (git_blob_filter(&out, blob.get(), path.c_str(), &opts) != 0) {
    git_buf_dispose(&out);
    return gitError(ErrorCode::IoError, "cannot filter blob " + blobHex, path);
  }
  std::string bytes(out.ptr != nullptr ? out.ptr : "", out.size);
  git_buf_dispose(&out);
  return bytes;
}

}  // namespace lw::verify
