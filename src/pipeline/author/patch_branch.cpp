#include "pipeline/author/patch_branch.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "core/step_label.h"
#include "github/markdown/neutralise.h"
#include "verify/git/libgit2.h"
#include "verify/git/push.h"
#include "verify/patch/apply_patch.h"

namespace lw::pipeline {

namespace fs = std::filesystem;
using verify::GitPtr;

namespace {

// A publication failure carrying what libgit2 (through verify's wrapper) said.
Error publicationError(Error e) {
  e.code = ErrorCode::PublicationFailed;
  return e;
}

// A scratch bare repository in `dir`, removed with this object, whose object
// store reads the checkout's as an alternate and writes only its own.
class ScratchRepository {
 public:
  ~ScratchRepository() {
    repo_.reset();
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  static Result<std::unique_ptr<ScratchRepository>> make(const std::string& dir, git_repository* checkout) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::string tmpl = (fs::path(dir) / "patch-branch-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      return makeError(ErrorCode::IoError, "cannot create a scratch repository in " + dir, "", dir);
    auto s = std::unique_ptr<ScratchRepository>(new ScratchRepository(tmpl));
    auto repo = verify::initBorrowingRepository(tmpl, checkout);
    if (!repo) return publicationError(std::move(repo).error());
    s->repo_ = std::move(*repo);
    return s;
  }
  git_repository* get() const { return repo_.get(); }

 private:
  explicit ScratchRepository(std::string path) : path_(std::move(path)) {}
  std::string path_;
  GitPtr<git_repository> repo_;
};

bool endsWithIgnoringCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) !=
        std::tolower(static_cast<unsigned char>(suffix[i])))
      return false;
  return true;
}

// The patch applied to the base commit's tree, committed with the base as
// its parent; nothing but the scratch repository's objects is written.
Result<git_oid> commitChange(git_repository* repo, const github::PublicationRequest& req,
                             const github::ProposedChange& change) {
  git_oid base;
  if (!verify::parseOid(change.baseCommit, base))
    return makeError(ErrorCode::PublicationFailed, "base commit '" + change.baseCommit + "' is not an object id");
  const std::string message = "loopwright: change proposed by author step " + stepLabel(change.stage, change.step) +
                              "\n\nRun " + req.id + ", made on " + change.baseCommit + ".\n";
  const verify::CommitIdentity who{"loopwright", "loopwright@users.noreply.github.com", change.committedAt};
  auto commit = verify::commitWithPatch(repo, base, change.patch, who, message);
  if (!commit) return publicationError(std::move(commit).error());
  return *commit;
}

// Pushes `commit` to `ref`, never over a ref that points elsewhere; true
// when the remote already had it.
Result<bool> pushCommit(git_repository* repo, const std::string& url, const std::string& ref, const git_oid& commit,
                        const std::string& token) {
  auto pushed = verify::pushNewRef(repo, url, ref, commit, token);
  if (!pushed) return publicationError(std::move(pushed).error());
  if (pushed->outcome == verify::NewRefPush::Outcome::TakenByAnother)
    return makeError(ErrorCode::PublicationFailed,
                     ref + " already exists on the remote at another commit (" + pushed->existing + ")",
                     "loopwright never force-pushes; delete the branch to publish this run's change again", url);
  return pushed->outcome == verify::NewRefPush::Outcome::AlreadyThere;
}

}  // namespace

PatchBranchConfig patchBranchConfigFor(const std::string& checkout, const std::string& stateDir,
                                       const github::RestConfig& rest) {
  return {checkout, github::webHostOfApiUrl(rest.apiUrl), (fs::path(stateDir) / "patch-branches").string(), rest.token};
}

std::string pushUrlFor(const std::string& origin, const github::RepoRef& repo, const std::string& webHost) {
  std::string path = withoutUserInfo(origin);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (endsWithIgnoringCase(path, ".git")) path.resize(path.size() - 4);
  const std::string name = repo.fullName();
  const bool namesRepo = endsWithIgnoringCase(path, name) &&
                         (path.size() == name.size() ||
                          std::string_view("/:").find(path[path.size() - name.size() - 1]) != std::string_view::npos);
  if (!origin.empty() && namesRepo) return origin;
  return "https://" + webHost + "/" + name + ".git";
}

bool mayCarryToken(const std::string& url) {
  if (url.rfind("https://", 0) == 0) return true;
  if (url.rfind("http://", 0) != 0) return false;
  std::string host = withoutUserInfo(url).substr(7);
  host = host.substr(0, host.find('/'));
  if (host.rfind("[::1]", 0) == 0) return true;
  host = host.substr(0, host.find(':'));
  return host == "localhost" || host == "127.0.0.1";
}

std::string withoutUserInfo(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  auto hostStart = scheme + 3;
  auto slash = url.find('/', hostStart);
  auto at = url.rfind('@', slash == std::string::npos ? std::string::npos : slash);
  if (at == std::string::npos || at < hostStart) return url;
  return url.substr(0, hostStart) + url.substr(at + 1);
}

Result<github::PushedBranch> GitBranchPusher::push(const github::PublicationRequest& request,
                                                   const github::ProposedChange& change, const std::string& branch) {
  auto checkout = verify::openRepositoryAt(config_.checkout);
  if (!checkout) return publicationError(std::move(checkout).error());
  const std::string url = pushUrlFor(verify::remotePushUrl(checkout->get(), "origin"), request.repo, config_.webHost);
  auto scratch = ScratchRepository::make(config_.scratchDir, checkout->get());
  if (!scratch) return std::move(scratch).error();
  auto commit = commitChange((*scratch)->get(), request, change);
  if (!commit) return std::move(commit).error();
  const std::string clean = withoutUserInfo(url);
  const std::string token = mayCarryToken(clean) ? config_.token : "";
  auto there = pushCommit((*scratch)->get(), clean, "refs/heads/" + branch, *commit, token);
  if (!there) return std::move(there).error();
  return github::PushedBranch{branch, verify::oidHex(*commit), *there};
}

}  // namespace lw::pipeline
