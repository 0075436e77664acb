#include "verify/check/quarantine.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "verify/git/libgit2.h"

namespace lw::verify {
namespace {

// A step can write a file of any size; what is kept of it is bounded.
constexpr std::uint64_t kMaxQuarantineBlob = 16ull << 20;

std::string sanitize(const std::string& s) {
  std::string out;
  for (char ch : s) {
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
              ch == '_' || ch == '.';
    out.push_back(ok ? ch : '_');
  }
  while (out.find("..") != std::string::npos) out.replace(out.find(".."), 2, "_.");
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  if (out.ends_with(".lock") || out.back() == '.') out.push_back('_');
  return out.substr(0, 100);
}

// A CHANGES field as git quotes paths (core.quotePath): in double quotes
// with C escapes when it holds a byte that would break the one-line,
// tab-separated list (a file name may hold any byte but '/' and NUL).
std::string quoted(std::string_view s) {
  bool plain = std::none_of(s.begin(), s.end(), [](char ch) {
    auto c = static_cast<unsigned char>(ch);
    return c < 0x20 || c == 0x7f || c == '"' || c == '\\';
  });
  if (plain && !s.empty() && s.front() != ' ' && s.back() != ' ') return std::string(s);
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  return out + "\"";
}

Status addBlob(git_repository* repo, git_index* index, const std::string& path, const std::string& bytes,
               std::uint32_t mode) {
  git_oid id;
  if (git_blob_create_from_buffer(&id, repo, bytes.data(), bytes.size()) != 0)
    return gitError(ErrorCode::IoError, "cannot write quarantine blob", path);
  git_index_entry e;
  std::memset(&e, 0, sizeof e);
  e.mode = mode;
  e.id = id;
  e.path = path.c_str();
  if (git_index_add(index, &e) != 0) return gitError(ErrorCode::IoError, "cannot add to quarantine tree", path);
  return Ok{};
}

// Writes the tree of `index` and a parentless commit of it; its id.
Result<std::string> commitIndex(git_repository* repo, git_index* index, const std::string& message) {
  git_oid treeId;
  if (git_index_write_tree_to(&treeId, index, repo) != 0)
    return gitError(ErrorCode::IoError, "cannot write quarantine tree");
  git_tree* tree = nullptr;
  if (git_tree_lookup(&tree, repo, &treeId) != 0) return gitError(ErrorCode::IoError, "cannot read quarantine tree");
  GitPtr<git_tree> ownedTree(tree);
  git_signature* sig = nullptr;
  if (git_signature_now(&sig, "loopwright", "loopwright@localhost") != 0)
    return gitError(ErrorCode::Internal, "cannot make a signature");
  GitPtr<git_signature> ownedSig(sig);
  git_oid commitId;
  if (git_commit_create(&commitId, repo, nullptr, sig, sig, nullptr, message.c_str(), tree, 0, nullptr) != 0)
    return gitError(ErrorCode::IoError, "cannot write quarantine commit");
  return oidHex(commitId);
}

}  // namespace

std::string quarantineRefName(const std::string& runId, const std::string& step) {
  return "refs/loopwright/quarantine/" + sanitize(runId.empty() ? "run" : runId) + "/" +
         sanitize(step.empty() ? "step" : step);
}

Result<std::string> writeQuarantineCommit(const Baseline& b, const std::vector<Change>& changes,
                                          const std::string& runId, const std::string& step) {
  auto repo = openRepository(b.repoPath);
  if (!repo) return repo.error();
  git_index* raw = nullptr;
  if (git_index_new(&raw) != 0) return gitError(ErrorCode::IoError, "cannot create an index");
  GitPtr<git_index> index(raw);
  std::string list;
  std::size_t unrepresentable = 0;
  for (const Change& c : changes) {
    list += std::string(toString(c.kind)) + "\t" + std::string(toString(c.category)) + "\t" +
            quoted(std::string(toString(c.area)) + ":" + c.path) + (c.detail.empty() ? "" : "\t" + quoted(c.detail));
    std::string kept;  // where the bytes are, when not at their own path
    if (!c.resolved.empty() && c.kind != ChangeKind::Deleted) {
      auto st = statNoFollow(AT_FDCWD, c.resolved.c_str());
      if (st && st->has_value() && ((*st)->type == FileType::Symlink || (*st)->type == FileType::File)) {
        const FsStat& fs = **st;
        std::string bytes = fs.linkTarget;
        std::uint32_t mode = GIT_FILEMODE_LINK;
        if (fs.type == FileType::File) {
          mode = (fs.perm & 0100) != 0 ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
          if (fs.size > kMaxQuarantineBlob) {
            bytes = "loopwright: not kept, " + std::to_string(fs.size) + " bytes\n";
          } else {
            auto r = readFileAt(AT_FDCWD, c.resolved.c_str());
            bytes = r ? std::move(*r) : "loopwright: unreadable: " + r.error().message + "\n";
          }
        }
        // A path git refuses in a tree (a ".git" component: the worktree's
        // .git file, a step's dir/.git/config) is kept under a number, so
        // that no name a step picks can keep its changes out of the evidence.
        std::string treePath = std::string(toString(c.area)) + "/" + c.path;
        if (!addBlob(repo->get(), index.get(), treePath, bytes, mode)) {
          kept = "unrepresentable/" + std::to_string(++unrepresentable);
          if (auto added = addBlob(repo->get(), index.get(), kept, bytes, mode); !added) return added.error();
        }
      }
    }
    list += (kept.empty() ? "" : "\tkept as " + kept) + "\n";
  }
  if (auto st = addBlob(repo->get(), index.get(), "CHANGES", list, GIT_FILEMODE_BLOB); !st) return st.error();
  return commitIndex(repo->get(), index.get(),
                     "loopwright quarantine: run " + runId + ", step " + step + "\n\n" + list);
}

Status writeQuarantineRef(const Baseline& b, const std::string& refName, const std::string& commitId) {
  auto repo = openRepository(b.repoPath);
  if (!repo) return repo.error();
  git_oid id;
  if (!parseOid(commitId, id)) return makeError(ErrorCode::Internal, "bad commit id " + commitId);
  git_reference* ref = nullptr;
  if (git_reference_create(&ref, repo->get(), refName.c_str(), &id, 1, "loopwright quarantine") != 0)
    return gitError(ErrorCode::IoError, "cannot write " + refName);
  git_reference_free(ref);
  return Ok{};
}

}  // namespace lw::verify
