#include "pipeline/author/patch_branch.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "core/step_label.h"
#include "github/markdown/neutralise.h"
#include "verify/git/libgit2.h"
#include "verify/patch/apply_patch.h"

namespace lw::pipeline {

namespace fs = std::filesystem;
using verify::GitPtr;

namespace {

Error pushError(const std::string& what, const std::string& subject = {}) {
  return verify::gitError(ErrorCode::PublicationFailed, what, subject);
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
    git_repository* raw = nullptr;
    if (git_repository_init(&raw, tmpl.c_str(), 1) != 0) return pushError("cannot create a scratch repository", tmpl);
    s->repo_.reset(raw);
    git_odb* rawOdb = nullptr;
    if (git_repository_odb(&rawOdb, raw) != 0) return pushError("cannot open the scratch object store", tmpl);
    verify::GitPtr<git_odb> odb(rawOdb);
    const std::string objects = (fs::path(git_repository_commondir(checkout)) / "objects").string();
    int rc = git_odb_add_disk_alternate(odb.get(), objects.c_str());
    if (rc != 0) return pushError("cannot read the checkout's objects", objects);
    return s;
  }
  git_repository* get() const { return repo_.get(); }

 private:
  explicit ScratchRepository(std::string path) : path_(std::move(path)) {}
  std::string path_;
  GitPtr<git_repository> repo_;
};

// The checkout's origin push URL, or "" when it has none.
std::string originUrl(git_repository* checkout) {
  git_remote* raw = nullptr;
  if (git_remote_lookup(&raw, checkout, "origin") != 0) return "";
  verify::GitPtr<git_remote> origin(raw);
  const char* url = git_remote_pushurl(raw) ? git_remote_pushurl(raw) : git_remote_url(raw);
  if (!url) return "";
  // git resolves a relative path remote ("../x.git") from the working tree.
  if (url[0] == '.' && git_repository_workdir(checkout))
    return (fs::path(git_repository_workdir(checkout)) / url).lexically_normal().string();
  return url;
}

bool endsWithIgnoringCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) !=
        std::tolower(static_cast<unsigned char>(suffix[i])))
      return false;
  return true;
}

// The tree of `base` with the patch applied, written to `repo`.
Result<GitPtr<git_tree>> patchedTree(git_repository* repo, git_commit* base, const std::string& patch) {
  git_tree* treeRaw = nullptr;
  if (git_commit_tree(&treeRaw, base) != 0) return pushError("base tree not readable");
  GitPtr<git_tree> baseTree(treeRaw);
  auto tree = verify::treeWithPatch(repo, baseTree.get(), patch);
  if (!tree) return makeError(ErrorCode::PublicationFailed, tree.error().message);
  return std::move(*tree);
}

// The patch applied to the base commit's tree, committed with the base as
// its parent; nothing but the scratch repository's objects is written.
Result<git_oid> commitChange(git_repository* repo, const github::PublicationRequest& req,
                             const github::ProposedChange& change) {
  git_oid base;
  if (!verify::parseOid(change.baseCommit, base))
    return makeError(ErrorCode::PublicationFailed, "base commit '" + change.baseCommit + "' is not an object id");
  git_commit* parentRaw = nullptr;
  if (git_commit_lookup(&parentRaw, repo, &base) != 0) return pushError("base commit not found", change.baseCommit);
  GitPtr<git_object> parent(reinterpret_cast<git_object*>(parentRaw));
  auto tree = patchedTree(repo, parentRaw, change.patch);
  if (!tree) return std::move(tree).error();
  git_signature* sigRaw = nullptr;
  if (git_signature_new(&sigRaw, "loopwright", "loopwright@users.noreply.github.com", change.committedAt, 0) != 0)
    return pushError("cannot make the commit signature");
  GitPtr<git_signature> sig(sigRaw);
  const std::string message = "loopwright: change proposed by author step " + stepLabel(change.stage, change.step) +
                              "\n\nRun " + req.id + ", made on " + change.baseCommit + ".\n";
  const git_commit* parents[] = {parentRaw};
  git_oid commit;
  if (git_commit_create(&commit, repo, nullptr, sig.get(), sig.get(), nullptr, message.c_str(), tree->get(), 1,
                        parents) != 0)
    return pushError("cannot create the commit");
  return commit;
}

struct PushState {
  std::string token;
  bool tokenAllowed = false;
  int credentialCalls = 0;
  std::string rejected;  // the remote's reason for refusing the ref update
};

int giveCredentials(git_credential** out, const char*, const char*, unsigned int allowed, void* payload) {
  auto* s = static_cast<PushState*>(payload);
  // libgit2 asks again after every refusal: one try, then stop.
  if (!s->tokenAllowed || s->token.empty() || s->credentialCalls++ > 0 ||
      !(allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT))
    return GIT_PASSTHROUGH;
  return git_credential_userpass_plaintext_new(out, "x-access-token", s->token.c_str());
}

int noteRejection(const char* ref, const char* status, void* payload) {
  if (status) static_cast<PushState*>(payload)->rejected = std::string(ref) + ": " + status;
  return 0;
}

git_remote_callbacks callbacksFor(PushState& state) {
  git_remote_callbacks cb = GIT_REMOTE_CALLBACKS_INIT;
  cb.credentials = giveCredentials;
  cb.push_update_reference = noteRejection;
  cb.payload = &state;
  return cb;
}

// What the remote's `ref` points at, or nullopt when it has no such ref.
Result<std::optional<git_oid>> remoteRef(git_remote* remote, const std::string& ref) {
  const git_remote_head** heads = nullptr;
  size_t n = 0;
  if (git_remote_ls(&heads, &n, remote) != 0) return pushError("cannot list the remote's refs");
  for (size_t i = 0; i < n; ++i)
    if (ref == heads[i]->name) return std::optional<git_oid>(heads[i]->oid);
  return std::optional<git_oid>();
}

// Pushes `commit` to `ref`, never over a ref that points elsewhere; true
// when the remote already had it.
Result<bool> pushCommit(git_repository* repo, const std::string& url, const std::string& ref, const git_oid& commit,
                        PushState& state) {
  git_remote* raw = nullptr;
  if (git_remote_create_anonymous(&raw, repo, url.c_str()) != 0) return pushError("bad remote URL", url);
  verify::GitPtr<git_remote> remote(raw);
  git_remote_callbacks cb = callbacksFor(state);
  if (git_remote_connect(remote.get(), GIT_DIRECTION_PUSH, &cb, nullptr, nullptr) != 0)
    return pushError("cannot connect to the remote to push", url);
  auto existing = remoteRef(remote.get(), ref);
  if (!existing) return std::move(existing).error();
  if (*existing && git_oid_equal(&**existing, &commit)) return true;
  if (*existing)
    return makeError(ErrorCode::PublicationFailed,
                     ref + " already exists on the remote at another commit (" + verify::oidHex(**existing) + ")",
                     "loopwright never force-pushes; delete the branch to publish this run's change again", url);
  const std::string local = "refs/heads/loopwright-publish";
  git_reference* made = nullptr;
  if (git_reference_create(&made, repo, local.c_str(), &commit, 1, "loopwright publish") != 0)
    return pushError("cannot name the commit in the scratch repository");
  GitPtr<git_reference> madeRef(made);
  std::string spec = local + ":" + ref;  // no '+': never a forced update
  char* specs[] = {spec.data()};
  git_strarray refspecs{specs, 1};
  git_push_options opts = GIT_PUSH_OPTIONS_INIT;
  opts.callbacks = cb;
  if (git_remote_push(remote.get(), &refspecs, &opts) != 0) return pushError("push failed", url);
  if (!state.rejected.empty())
    return makeError(ErrorCode::PublicationFailed, "the remote refused the push: " + state.rejected, "", url);
  return false;
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
  verify::ensureLibGit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, config_.checkout.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    return pushError("cannot open the checkout", config_.checkout);
  GitPtr<git_repository> checkout(raw);
  const std::string url = pushUrlFor(originUrl(checkout.get()), request.repo, config_.webHost);
  auto scratch = ScratchRepository::make(config_.scratchDir, checkout.get());
  if (!scratch) return std::move(scratch).error();
  auto commit = commitChange((*scratch)->get(), request, change);
  if (!commit) return std::move(commit).error();
  const std::string clean = withoutUserInfo(url);
  PushState state{config_.token, mayCarryToken(clean), 0, {}};
  auto there = pushCommit((*scratch)->get(), clean, "refs/heads/" + branch, *commit, state);
  if (!there) return std::move(there).error();
  return github::PushedBranch{branch, verify::oidHex(*commit), *there};
}

}  // namespace lw::pipeline
