#include <doctest/doctest.h>

#include "github/publish/channels/resolve_plan.h"
#include "github/publish/channels/review_plan.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"

using namespace lw;
using namespace lw::github;

namespace {

OwnComment comment(std::int64_t id, const std::string& fp, std::string path = "src/a.c", bool answered = false) {
  return OwnComment{id, "**error** `r`\n\nm\n" + findingMarker(fp, Origin::Trusted, Severity::Error, "security"),
                    std::move(path), answered};
}

StepRow reviewed(std::vector<std::string> paths, std::string outcome = "passed") {
  StepRow r;
  r.stage = "review";
  r.step = "review";
  r.outcome = rowOutcomeNamed(outcome);
  r.coverage = Coverage{};
  r.coverage->complete = true;
  for (auto& p : paths) r.coverage->files.push_back({p, FileReview::Reviewed, ""});
  r.coverage->files.push_back({"vendor/x.js", FileReview::Skipped, "vendored"});
  return r;
}

const std::string kGone = "00000000000000aa";
const std::string kKept = "00000000000000bb";

}  // namespace

TEST_CASE("resolve plan: a gone finding in a reviewed file is resolved, a still-reported one is not") {
  std::vector<OwnComment> own = {comment(1, kGone), comment(2, kKept)};
  auto ids = planResolve(own, {kKept}, ResolveRule{std::set<std::string>{"src/a.c"}});
  CHECK(ids == std::vector<std::int64_t>{1});
}

TEST_CASE(
    "resolve plan: a thread someone answered, a file not reviewed, or an already resolved comment is left alone") {
  SUBCASE("answered") { CHECK(planResolve({comment(1, kGone, "src/a.c", true)}, {}, ResolveRule{}).empty()); }
  SUBCASE("not in scope") {
    CHECK(planResolve({comment(1, kGone, "src/b.c")}, {}, ResolveRule{std::set<std::string>{"src/a.c"}}).empty());
  }
  SUBCASE("empty scope") { CHECK(planResolve({comment(1, kGone)}, {}, ResolveRule{std::set<std::string>{}}).empty()); }
  SUBCASE("already resolved") {
    OwnComment c{1, "**Resolved** " + resolvedMarker(kGone, Origin::Trusted), "src/a.c", false};
    CHECK(planResolve({c}, {}, ResolveRule{}).empty());
  }
  SUBCASE("no marker") { CHECK(planResolve({OwnComment{1, "hello", "src/a.c", false}}, {}, ResolveRule{}).empty()); }
  SUBCASE("every file") {
    CHECK(planResolve({comment(1, kGone, "src/b.c")}, {}, ResolveRule{}) == std::vector<std::int64_t>{1});
  }
}

TEST_CASE("resolve plan: after an incremental review only comments GitHub took off the diff are resolved") {
  OwnComment untouched = comment(1, kGone);
  OwnComment outdated = comment(2, kGone);
  outdated.outdated = true;
  ResolveRule rule{std::set<std::string>{"src/a.c"}, true};
  CHECK(planResolve({untouched, outdated}, {}, rule) == std::vector<std::int64_t>{2});
  CHECK(planResolve({untouched, outdated}, {}, ResolveRule{std::set<std::string>{"src/a.c"}}) ==
        std::vector<std::int64_t>{1, 2});
}

TEST_CASE(
    "resolve scope: the files the steps reviewed, nothing after a failed step or an incremental run without coverage") {
  auto scope = resolveScope({reviewed({"src/a.c"}), reviewed({"src/b.c"})}, true);
  REQUIRE(scope);
  CHECK(*scope == std::set<std::string>{"src/a.c", "src/b.c"});  // skipped files are not in it

  StepRow lint;
  lint.step = "lint";
  lint.outcome = StepOutcome::Passed;
  CHECK_FALSE(resolveScope({lint}, false).has_value());  // no coverage, whole change: every file
  REQUIRE(resolveScope({lint}, true));
  CHECK(resolveScope({lint}, true)->empty());  // only what changed since: we do not know which files

  auto failed = resolveScope({reviewed({"src/a.c"}), reviewed({"src/b.c"}, "failed")}, false);
  REQUIRE(failed);
  CHECK(failed->empty());
  StepRow blocked = lint;
  blocked.blocked = true;
  REQUIRE(resolveScope({blocked}, false));
  CHECK(resolveScope({blocked}, false)->empty());
}

TEST_CASE("review plan: resolves through the scope and keeps answered threads") {
  Finding f;
  f.step = "review";
  f.ruleId = "r";
  f.severity = Severity::Warning;
  f.message = "still here";
  f.path = "src/a.c";
  f.line = 3;
  std::string still = fingerprint(f);
  std::vector<OwnComment> own = {comment(1, kGone, "src/a.c"), comment(2, still, "src/a.c"),
                                 comment(3, kGone, "src/other.c"), comment(4, kGone, "src/a.c", true)};
  ReviewPlan plan = planReview({f}, nullptr, {still}, own, 10, ResolveRule{std::set<std::string>{"src/a.c"}});
  CHECK(plan.resolve == std::vector<std::int64_t>{1});
  CHECK(plan.alreadyPosted == 1);
  CHECK_FALSE(plan.hasNew());
}
