#include <doctest/doctest.h>

#include "core/http_curl.h"
#include "github/actions/comment_command.h"
#include "github/rest/github_http.h"
#include "support/fake_github.h"

using namespace lw;
using namespace lw::github;
using lw::test::FakeGithub;

namespace {

class StillClock final : public WallClock {
 public:
  std::chrono::system_clock::time_point now() const override { return std::chrono::system_clock::now(); }
};

class NoSleep final : public Sleeper {
 public:
  void sleepFor(std::chrono::milliseconds) override {}
};

struct PermissionRig {
  FakeGithub gh;
  http::CurlTransport transport{httpPolicy()};
  StillClock clock;
  NoSleep sleeper;
  RestClient api{transport, clock, sleeper, [this] {
                   RestConfig c;
                   c.apiUrl = gh.url();
                   c.token = FakeGithub::kToken;
                   return c;
                 }()};
  RepoRef repo{FakeGithub::kOwner, FakeGithub::kRepo};
};

}  // namespace

TEST_CASE("comment command: only a comment that starts with /loopwright review or triage gives one") {
  CHECK(parseCommentCommand("/loopwright review") == CommentCommand::Review);
  CHECK(parseCommentCommand("\n  /loopwright review please\nthanks") == CommentCommand::Review);
  CHECK(parseCommentCommand("/loopwright   triage") == CommentCommand::Triage);
  CHECK(parseCommentCommand("/loopwright triage\r\n") == CommentCommand::Triage);
  CHECK_FALSE(parseCommentCommand("/loopwright reviewed"));
  CHECK_FALSE(parseCommentCommand("/loopwright"));
  CHECK_FALSE(parseCommentCommand("/loopwright deploy"));
  CHECK_FALSE(parseCommentCommand("please /loopwright review"));
  CHECK_FALSE(parseCommentCommand("> /loopwright review"));
  CHECK_FALSE(parseCommentCommand(""));
}

TEST_CASE("comment command: write, maintain and admin may command, triage, read and none may not") {
  for (const char* p : {"admin", "maintain", "write"}) CHECK(permissionMayCommand(p));
  for (const char* p : {"triage", "read", "none", "", "WRITE"}) CHECK_FALSE(permissionMayCommand(p));
}

TEST_CASE("comment command: the commenter's permission from GET collaborators/{login}/permission") {
  PermissionRig rig;
  rig.gh.setPermission("mona", "admin");
  rig.gh.setPermission("hubot", "maintain");
  rig.gh.setPermission("reader", "triage");
  CHECK(*fetchPermission(rig.api, rig.repo, "mona") == "admin");
  CHECK(*fetchPermission(rig.api, rig.repo, "hubot") == "write");  // GitHub's legacy field
  CHECK(*fetchPermission(rig.api, rig.repo, "reader") == "read");
  CHECK(*fetchPermission(rig.api, rig.repo, "stranger") == "none");  // 404: not a collaborator
  CHECK(rig.gh.count("GET", "/collaborators/stranger/permission") == 1);

  SUBCASE("a login that is no user's is none, without a request") {
    rig.gh.clearRequests();
    CHECK(*fetchPermission(rig.api, rig.repo, "dependabot[bot]") == "none");
    CHECK(*fetchPermission(rig.api, rig.repo, "../../admin") == "none");
    CHECK(*fetchPermission(rig.api, rig.repo, "") == "none");
    CHECK(rig.gh.requests().empty());
  }
  SUBCASE("another refusal is an error, never a permission") {
    FakeGithub::Script s;
    s.pathContains = "/permission";
    s.status = 403;
    s.body = R"({"message":"Resource not accessible by integration"})";
    rig.gh.script(s);
    auto r = fetchPermission(rig.api, rig.repo, "mona");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::PublicationFailed);
  }
}
