#include "verify/check/restore.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>

#include "core/unique_fd.h"
#include "verify/baseline/content_store.h"
#include "verify/git/libgit2.h"

namespace lw::verify {
namespace {

std::string errnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

// Opens the directory `relDir` below `root` one component at a time, refusing
// symlinks (O_NOFOLLOW) at every step.
Result<UniqueFd> openDirNoFollow(const std::string& root, const std::string& relDir) {
  UniqueFd cur(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!cur) return makeError(ErrorCode::IoError, errnoText("open " + root));
  std::size_t start = 0;
  while (start < relDir.size()) {
    std::size_t slash = relDir.find('/', start);
    std::string part = relDir.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    UniqueFd next(::openat(cur.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next) return makeError(ErrorCode::IoError, errnoText("open " + relDir));
    cur = std::move(next);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return cur;
}

bool removeTreeAt(int dirFd, const char* name) {
  struct stat s {};
  if (fstatat(dirFd, name, &s, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT;
  if (!S_ISDIR(s.st_mode)) return unlinkat(dirFd, name, 0) == 0 || errno == ENOENT;
  int fd = openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  DIR* d = fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return false;
  }
  bool ok = true;
  std::vector<std::string> names;
  while (dirent* ent = readdir(d)) {
    std::string n = ent->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  for (const std::string& n : names) ok = removeTreeAt(dirfd(d), n.c_str()) && ok;
  closedir(d);
  return ok && (unlinkat(dirFd, name, AT_REMOVEDIR) == 0 || errno == ENOENT);
}

std::string tempName() {
  static std::mt19937_64 rng{std::random_device{}()};
  return ".lw-restore-" + std::to_string(rng());
}

bool writeFileAt(int dirFd, const std::string& name, const std::string& bytes, const FsStat& st, std::string& why) {
  std::string tmp = tempName();
  int fd = openat(dirFd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    why = errnoText("create");
    return false;
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      why = errnoText("write");
      ::close(fd);
      unlinkat(dirFd, tmp.c_str(), 0);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  fchmod(fd, st.perm);
  timespec times[2] = {{0, UTIME_OMIT}, {st.mtimeNs / 1000000000, st.mtimeNs % 1000000000}};
  futimens(fd, times);
  ::close(fd);
  if (renameat(dirFd, tmp.c_str(), dirFd, name.c_str()) != 0) {
    why = errnoText("rename");
    unlinkat(dirFd, tmp.c_str(), 0);
    return false;
  }
  return true;
}

bool symlinkAt(int dirFd, const std::string& name, const std::string& target, std::string& why) {
  std::string tmp = tempName();
  if (symlinkat(target.c_str(), dirFd, tmp.c_str()) != 0 || renameat(dirFd, tmp.c_str(), dirFd, name.c_str()) != 0) {
    why = errnoText("symlink");
    unlinkat(dirFd, tmp.c_str(), 0);
    return false;
  }
  return true;
}

bool chmodNoFollow(int dirFd, const std::string& name, std::uint32_t perm, std::string& why) {
  int fd = openat(dirFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 || fchmod(fd, perm) != 0) {
    why = errnoText("chmod");
    if (fd >= 0) ::close(fd);
    return false;
  }
  ::close(fd);
  return true;
}

void splitPath(const std::string& rel, std::string& dir, std::string& name) {
  auto slash = rel.rfind('/');
  dir = slash == std::string::npos ? "" : rel.substr(0, slash);
  name = slash == std::string::npos ? rel : rel.substr(slash + 1);
}

bool isFileChange(const Change& c) {
  switch (c.kind) {
    case ChangeKind::RefAdded:
    case ChangeKind::RefDeleted:
    case ChangeKind::RefMoved:
    case ChangeKind::Head: return false;
    default: return true;
  }
}

class Restorer {
 public:
  Restorer(const Baseline& b, std::vector<std::string>& failures) : b_(b), failures_(failures) {
    auto s = ContentStore::open(b.storePath);
    if (s) store_.emplace(std::move(*s));
  }

  void remove(Change& c) {
    std::string dir, name;
    splitPath(c.path, dir, name);
    auto fd = openDirNoFollow(b_.rootOf(c.area), dir);
    if (!fd) {
      // The parent is gone (or was replaced) and is being restored too.
      if (c.kind == ChangeKind::Added) c.restored = true;
      return;
    }
    if (!removeTreeAt(fd->get(), name.c_str()))
      fail(c, errnoText("remove"));
    else if (c.kind == ChangeKind::Added)
      c.restored = true;
  }

  void create(Change& c) {
    const BaselineEntry* e = b_.find(c.area, c.path);
    if (e == nullptr) return fail(c, "not in the baseline");
    std::string dir, name, why;
    splitPath(c.path, dir, name);
    auto fd = openDirNoFollow(b_.rootOf(c.area), dir);
    if (!fd) return fail(c, fd.error().message);
    bool ok = false;
    switch (e->stat.type) {
      case FileType::Dir:
        if (mkdirat(fd->get(), name.c_str(), 0700) != 0 && errno != EEXIST) {
          why = errnoText("mkdir");
        } else {
          ok = chmodNoFollow(fd->get(), name, e->stat.perm, why);
        }
        break;
      case FileType::Symlink: ok = symlinkAt(fd->get(), name, e->stat.linkTarget, why); break;
      case FileType::File: {
        auto bytes = contentOf(*e);
        if (!bytes) {
          why = bytes.error().message;
        } else {
          ok = writeFileAt(fd->get(), name, *bytes, e->stat, why);
        }
        break;
      }
      case FileType::Other: why = "special files are not restorable"; break;
    }
    if (ok)
      c.restored = true;
    else
      fail(c, why);
  }

  void chmod(Change& c) {
    const BaselineEntry* e = b_.find(c.area, c.path);
    std::string dir, name, why;
    splitPath(c.path, dir, name);
    auto fd = openDirNoFollow(b_.rootOf(c.area), dir);
    if (e == nullptr || !fd) return fail(c, "parent directory unavailable");
    if (chmodNoFollow(fd->get(), name, e->stat.perm, why))
      c.restored = true;
    else
      fail(c, why);
  }

  void openRepo() {
    auto r = openRepository(b_.repoPath);
    if (r) repo_ = std::move(*r);
  }

 private:
  Result<std::string> contentOf(const BaselineEntry& e) {
    if (e.source == ContentSource::Store) {
      if (!store_) return makeError(ErrorCode::IoError, "baseline store unavailable");
      return store_->read({e.storeOffset, e.storeSize});
    }
    if (e.source == ContentSource::Blob) {
      if (!repo_) return makeError(ErrorCode::IoError, "repository unreadable");
      return blobAsWorkTree(repo_.get(), e.blobId, e.path);
    }
    return makeError(ErrorCode::IoError, "content was not captured (over the budget)");
  }

  void fail(const Change& c, const std::string& why) {
    failures_.push_back(std::string(toString(c.area)) + ":" + c.path + ": " + why);
  }

  const Baseline& b_;
  std::vector<std::string>& failures_;
  std::optional<ContentStore> store_;
  GitPtr<git_repository> repo_;
};

}  // namespace

std::vector<std::string> restoreChanges(const Baseline& b, std::vector<Change>& changes) {
  std::vector<std::string> failures;
  Restorer r(b, failures);
  std::vector<Change*> picked;
  for (Change& c : changes) {
    if (c.remedy == Remedy::Undo && isFileChange(c)) {
      if (!c.restorable) {
        failures.push_back(std::string(toString(c.area)) + ":" + c.path +
                           ": detected but not restorable (not captured in the baseline)");
        continue;
      }
      picked.push_back(&c);
    }
  }
  // git metadata first, so that the work tree is rebuilt with the baseline's
  // config and attributes.
  for (bool gitPass : {true, false}) {
    if (!gitPass) r.openRepo();
    auto inPass = [&](const Change* c) { return (c->area != Area::WorkTree) == gitPass; };
    std::vector<Change*> pass;
    std::copy_if(picked.begin(), picked.end(), std::back_inserter(pass), inPass);
    std::sort(pass.begin(), pass.end(), [](Change* x, Change* y) { return x->path > y->path; });
    for (Change* c : pass)
      if (c->kind == ChangeKind::Added || c->kind == ChangeKind::Symlink || c->kind == ChangeKind::TypeChanged)
        r.remove(*c);
    std::reverse(pass.begin(), pass.end());
    for (Change* c : pass) {
      if (c->kind == ChangeKind::Deleted || c->kind == ChangeKind::Modified || c->kind == ChangeKind::Symlink ||
          c->kind == ChangeKind::TypeChanged)
        r.create(*c);
      else if (c->kind == ChangeKind::Mode)
        r.chmod(*c);
    }
  }
  // Ref changes are undone by restoring the files that hold them.
  auto refs = readRefs(b.repoPath);
  bool refsBack = refs && refs->size() == b.refs.size() &&
                  std::equal(refs->begin(), refs->end(), b.refs.begin(), [](const RefState& x, const RefState& y) {
                    return x.name == y.name && x.target == y.target;
                  });
  for (Change& c : changes)
    if (c.remedy == Remedy::Undo && !isFileChange(c)) {
      c.restored = refsBack;
      if (!refsBack) failures.push_back("ref " + c.path + ": not back to the baseline");
    }
  return failures;
}

}  // namespace lw::verify
