#include "verify/patch/worktree_files.h"

#include <algorithm>
#include <mutex>

#include "verify/baseline/fs_walk.h"
#include "verify/git/libgit2.h"

namespace lw::verify {
namespace {

int recordEntry(const char* root, const git_tree_entry* entry, void* payload) {
  if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) return 0;
  TreeItem item;
  git_oid_cpy(&item.id, git_tree_entry_id(entry));
  item.mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(entry));
  static_cast<TreeTable*>(payload)->emplace(std::string(root) + git_tree_entry_name(entry), item);
  return 0;
}

// Git's mode for what is on disk: only the owner's executable bit is kept.
std::uint32_t modeOf(const FsStat& st) {
  if (st.type == FileType::Symlink) return GIT_FILEMODE_LINK;
  return (st.perm & 0100) != 0 ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
}

// The files of one directory, read in the walk's threads; the table is only read.
class FileReader {
 public:
  explicit FileReader(const TreeTable& base) : base_(base) {}

  void visit(int dirFd, const std::string& relDir, std::vector<WalkChild>& children) {
    std::vector<WorktreeFile> here;
    for (WalkChild& c : children) {
      const std::string rel = relDir.empty() ? c.name : relDir + "/" + c.name;
      if (c.name == ".git" || (c.st.type == FileType::Dir && isGitlink(rel))) {
        c.tag = kSkipDir;
        continue;
      }
      if (c.st.type != FileType::File && c.st.type != FileType::Symlink) continue;
      auto file = read(dirFd, rel, c);
      if (!file) return fail(file.error());
      here.push_back(std::move(*file));
    }
    std::lock_guard lock(mu_);
    for (WorktreeFile& f : here) files_.push_back(std::move(f));
  }

  Result<std::vector<WorktreeFile>> take() {
    if (error_) return *error_;
    std::sort(files_.begin(), files_.end(),
              [](const WorktreeFile& a, const WorktreeFile& b) { return a.path < b.path; });
    return std::move(files_);
  }

 private:
  bool isGitlink(const std::string& rel) const {
    auto it = base_.find(rel);
    return it != base_.end() && it->second.mode == GIT_FILEMODE_COMMIT;
  }

  Result<WorktreeFile> read(int dirFd, const std::string& rel, const WalkChild& c) const {
    WorktreeFile f;
    f.path = rel;
    f.blob.mode = modeOf(c.st);
    std::string bytes = c.st.linkTarget;
    if (c.st.type == FileType::File) {
      auto content = readFileAt(dirFd, c.name.c_str(), c.st.size);
      if (!content)
        return makeError(ErrorCode::IoError, "cannot read " + rel + ": " + content.error().message, "", rel);
      bytes = std::move(*content);
    }
    f.size = bytes.size();
    if (git_odb_hash(&f.blob.id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) != 0)
      return gitError(ErrorCode::IoError, "cannot hash " + rel, rel);
    auto it = base_.find(rel);
    f.tracked = it != base_.end() && it->second.mode != GIT_FILEMODE_COMMIT;
    if (!f.tracked || git_oid_cmp(&it->second.id, &f.blob.id) != 0) f.bytes = std::move(bytes);
    return f;
  }

  void fail(Error e) {
    std::lock_guard lock(mu_);
    if (!error_) error_ = std::move(e);
  }

  const TreeTable& base_;
  std::mutex mu_;
  std::vector<WorktreeFile> files_;
  std::optional<Error> error_;
};

}  // namespace

Result<TreeTable> treeTable(git_tree* tree) {
  TreeTable table;
  if (git_tree_walk(tree, GIT_TREEWALK_PRE, recordEntry, &table) != 0)
    return gitError(ErrorCode::IoError, "cannot read the base tree");
  return table;
}

Result<std::vector<WorktreeFile>> readWorktreeFiles(const std::filesystem::path& root, const TreeTable& base) {
  FileReader reader(base);
  Status walked = walkTreeParallel(root.string(), 0, 0,
                                   [&](int dirFd, const std::string& relDir, std::uint8_t /*tag*/,
                                       std::vector<WalkChild>& children) { reader.visit(dirFd, relDir, children); });
  if (!walked) return walked.error();
  return reader.take();
}

}  // namespace lw::verify
