#include <doctest/doctest.h>

#include "github/publish/fingerprint.h"

using namespace lw;
using namespace lw::github;

TEST_CASE("fingerprint: stable, 16 hex digits, sensitive to every field") {
  Finding a;
  a.step = "s";
  a.ruleId = "r";
  a.path = "p";
  a.line = 3;
  a.message = "m";
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
