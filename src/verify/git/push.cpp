#include "verify/git/push.h"

#include <optional>

namespace lw::verify {
namespace {

struct PushState {
  std::string token;
  int credentialCalls = 0;
  std::string rejected;  // the remote's reason for refusing the ref update
};

int giveCredentials(git_credential** out, const char*, const char*, unsigned int allowed, void* payload) {
  auto* s = static_cast<PushState*>(payload);
  // libgit2 asks again after every refusal: one try, then stop.
  if (s->token.empty() || s->credentialCalls++ > 0 || !(allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT))
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

// What the connected remote's `ref` points at, or nullopt when it has no such ref.
Result<std::optional<git_oid>> remoteRef(git_remote* remote, const std::string& ref) {
  const git_remote_head** heads = nullptr;
  size_t n = 0;
  if (git_remote_ls(&heads, &n, remote) != 0) return gitError(ErrorCode::IoError, "cannot list the remote's refs");
  for (size_t i = 0; i < n; ++i)
    if (ref == heads[i]->name) return std::optional<git_oid>(heads[i]->oid);
  return std::optional<git_oid>();
}

// Pushes the local ref naming `commit` to `ref`, with no '+': never a forced update.
Status pushRef(git_repository* repo, git_remote* remote, const std::string& ref, const git_oid& commit,
               const git_remote_callbacks& cb, const std::string& url) {
  const std::string local = "refs/heads/loopwright-publish";
  git_reference* made = nullptr;
  if (git_reference_create(&made, repo, local.c_str(), &commit, 1, "loopwright publish") != 0)
    return gitError(ErrorCode::IoError, "cannot name the commit to push");
  GitPtr<git_reference> madeRef(made);
  std::string spec = local + ":" + ref;
  char* specs[] = {spec.data()};
  git_strarray refspecs{specs, 1};
  git_push_options opts = GIT_PUSH_OPTIONS_INIT;
  opts.callbacks = cb;
  if (git_remote_push(remote, &refspecs, &opts) != 0) return gitError(ErrorCode::IoError, "push failed", url);
  return Ok{};
}

}  // namespace

Result<NewRefPush> pushNewRef(git_repository* repo, const std::string& url, const std::string& ref,
                              const git_oid& commit, const std::string& token) {
  git_remote* raw = nullptr;
  if (git_remote_create_anonymous(&raw, repo, url.c_str()) != 0)
    return gitError(ErrorCode::IoError, "bad remote URL", url);
  GitPtr<git_remote> remote(raw);
  PushState state{token, 0, {}};
  git_remote_callbacks cb = callbacksFor(state);
  if (git_remote_connect(remote.get(), GIT_DIRECTION_PUSH, &cb, nullptr, nullptr) != 0)
    return gitError(ErrorCode::IoError, "cannot connect to the remote to push", url);
  auto existing = remoteRef(remote.get(), ref);
  if (!existing) return std::move(existing).error();
  if (*existing && git_oid_equal(&**existing, &commit)) return NewRefPush{NewRefPush::Outcome::AlreadyThere, {}};
  if (*existing) return NewRefPush{NewRefPush::Outcome::TakenByAnother, oidHex(**existing)};
  if (auto pushed = pushRef(repo, remote.get(), ref, commit, cb, url); !pushed) return pushed.error();
  if (!state.rejected.empty())
    return makeError(ErrorCode::IoError, "the remote refused the push: " + state.rejected, "", url);
  return NewRefPush{};
}

}  // namespace lw::verify
