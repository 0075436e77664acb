#include <sstream>

#include <doctest/doctest.h>

#include "github/publish/fallback.h"

using namespace lw;
using namespace lw::github;

namespace {

FallbackItem item(Severity s, std::string msg, bool inDiff) {
  Finding f;
  f.severity = s;
  f.message = std::move(msg);
  f.path = "a.c";
  f.line = 1;
  return {f, inDiff};
}

}  // namespace

TEST_CASE("fallback: errors first, in-diff first, per-level and total limits") {
  std::vector<FallbackItem> items;
  for (int i = 0; i < 12; ++i) items.push_back(item(Severity::Warning, "w" + std::to_string(i), i == 11));
  for (int i = 0; i < 12; ++i) items.push_back(item(Severity::Error, "e" + std::to_string(i), i >= 10));
  items.push_back(item(Severity::Notice, "n", false));
  FallbackPlan p = planFallback(items);
  REQUIRE(p.annotations.size() == 21);
  CHECK(p.annotations[0].message == "e10");
  CHECK(p.annotations[1].message == "e11");
  CHECK(p.annotations[2].message == "e0");
  CHECK(p.annotations[9].message == "e7");
  CHECK(p.annotations[10].message == "w11");
  CHECK(p.annotations[20].message == "n");
  CHECK(p.rest.size() == 4);
  FallbackPlan tight = planFallback(items, AnnotationLimits{.errors = 10, .warnings = 10, .notices = 10, .total = 3});
  CHECK(tight.annotations.size() == 3);
  CHECK(tight.rest.size() == 22);
  CHECK(tight.annotations.size() + tight.rest.size() == items.size());
}

TEST_CASE("fallback: printed as annotation commands, then a count of the rest") {
  FallbackPlan p;
  p.annotations.push_back(item(Severity::Error, "boom", true).finding);
  p.rest.push_back(item(Severity::Notice, "later", false).finding);
  std::ostringstream log;
  printFallback(log, p);
  CHECK(log.str() ==
        "::error file=a.c,line=1::boom\n"
        "loopwright: 1 more finding(s) exceed GitHub's annotation limits; they are listed in the step summary\n");
}
