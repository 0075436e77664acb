#include <doctest/doctest.h>

#include "core/http_curl.h"
#include "github/rest/base_taskpack.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"

using namespace lw;
using namespace lw::github;
using lw::test::FakeGithub;

namespace {

constexpr const char* kBase = "b123456789abcdef0123456789abcdef01234567";
constexpr const char* kPath = ".loopwright/taskpack.yaml";

const std::string kValid = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: base}
spec:
  stages:
    - name: review
      on: [pull_request]
      steps:
        - {name: lint, run: [./lint.sh]}
  publication: {failOn: warning}
)";

RestConfig config(const FakeGithub& gh) {
  RestConfig c;
  c.apiUrl = gh.url();
  c.token = FakeGithub::kToken;
  return c;
}

struct Rig {
  Rig() : api(transport, clock, sleeper, config(gh)) {}
  Result<Taskpack> fetch(const std::string& commit = kBase) {
    return fetchBaseTaskpack(api, RepoRef{FakeGithub::kOwner, FakeGithub::kRepo}, commit, kPath, {});
  }
  FakeGithub gh;
  http::CurlTransport transport{httpPolicy()};
  SystemClock clock;
  ThreadSleeper sleeper;
  RestClient api;
};

}  // namespace

TEST_CASE("base taskpack: read at the base commit through the contents API") {
  Rig rig;
  rig.gh.reads().contents[kBase][kPath] = kValid;
  rig.gh.reads().contents["main"][kPath] = "not the base commit's";
  auto t = rig.fetch();
  REQUIRE_MESSAGE(t.ok(), (t.ok() ? "" : t.error().message));
  CHECK(t->name == "base");
  CHECK(t->publication.failOn == FailOn::Warning);
  CHECK(rig.gh.count("GET", std::string("/contents/") + kPath) > 0);
}

TEST_CASE("base taskpack: missing, too large, binary or invalid, nothing may be published") {
  struct Case {
    const char* name;
    std::optional<std::string> text;  // nullopt: no file at the base commit
    std::string says;
  };
  const std::string source = std::string(kBase) + ":" + kPath;
  const Case cases[] = {
      {"missing", std::nullopt, source + " does not exist"},
      {"over 64 KiB", "# " + std::string(kTaskpackMaxBytes, 'x') + "\n",
       source + " is " + std::to_string(kTaskpackMaxBytes + 3) + " bytes; a taskpack is at most 65536"},
      {"binary", std::string("apiVersion: \0\1\2", 15), source + " is not text"},
      {"invalid", "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nspec: {stages: 3}\n", source + " is invalid: "},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Rig rig;
    rig.gh.reads().contents[kBase];
    if (c.text) rig.gh.reads().contents[kBase][kPath] = *c.text;
    auto t = rig.fetch();
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().code == ErrorCode::PublicationFailed);
    CHECK(t.error().message.find("the artifact was not published: the base taskpack " + c.says) != std::string::npos);
    CHECK(t.error().hint.find("docs/fork-pull-requests.md") != std::string::npos);
  }
}

TEST_CASE("base taskpack: without a base commit the default branch is not read instead") {
  Rig rig;
  rig.gh.reads().contents["main"][kPath] = kValid;
  auto t = rig.fetch("");
  REQUIRE_FALSE(t.ok());
  CHECK(t.error().message.find("the pull request has no base commit") != std::string::npos);
  CHECK(rig.gh.requests().empty());
}
