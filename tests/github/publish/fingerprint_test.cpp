#include <doctest/doctest.h>

#include "github/publish/fingerprint.h"

using namespace lw;
using namespace lw::github;

namespace {

Finding sample() {
  Finding a;
  a.step = "s";
  a.ruleId = "r";
  a.path = "p";
  a.line = 3;
  a.message = "m";
  return a;
}

}  // namespace

TEST_CASE("fingerprint: stable, 16 hex digits, sensitive to every field") {
  const Finding a = sample();
  std::string fp = fingerprint(a);
  CHECK(fp.size() == 16);
  CHECK(fp == fingerprint(a));
  CHECK(fp.find_first_not_of("0123456789abcdef") == std::string::npos);
  Finding b = a;
  b.step = "s2";
  CHECK(fingerprint(b) != fp);
  b = a;
  b.line = 4;
  CHECK(fingerprint(b) != fp);
  b = a;
  b.message = "m ";
  CHECK(fingerprint(b) != fp);
  // Field boundaries matter: ("ab","c") differs from ("a","bc").
  Finding c = a, d = a;
  c.step = "ab";
  c.ruleId = "c";
  d.step = "a";
  d.ruleId = "bc";
  CHECK(fingerprint(c) != fingerprint(d));
}

// Markers already posted on pull requests carry these values: a re-run must
// compute the same ones to update them rather than post duplicates.
TEST_CASE("fingerprint: the values markers already on GitHub carry") {
  CHECK(fingerprint(sample()) == "7fe75332fc80cfe1");
  Finding b;
  b.step = "lint";
  b.ruleId = "no-tabs";
  b.path = "src/a.c";
  b.line = 12;
  b.endLine = 14;
  b.message = "a tab";
  CHECK(fingerprint(b) == "0595e186ad14546f");
}
