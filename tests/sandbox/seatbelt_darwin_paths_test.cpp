#include <doctest/doctest.h>

#include "sandbox/seatbelt/darwin_paths.h"

using namespace lw::sandbox::seatbelt;

TEST_CASE("darwin paths: /var, /tmp and /etc are spelled under /private, nothing else is") {
  CHECK(privateSpelling("/var/folders/x/T/lw") == "/private/var/folders/x/T/lw");
  CHECK(privateSpelling("/tmp") == "/private/tmp");
  CHECK(privateSpelling("/etc/hosts") == "/private/etc/hosts");
  CHECK(privateSpelling("/private/var/db") == "/private/var/db");
  CHECK(privateSpelling("/variable/x") == "/variable/x");
  CHECK(privateSpelling("/Users/me/../me/repo") == "/Users/me/repo");
  CHECK(privateSpelling("var/x") == "var/x");
  CHECK(privateSpelling("/") == "/");
}

TEST_CASE("darwin paths: a $TMPDIR path and the kernel's spelling of it are the same place") {
  CHECK(sameDarwinPath("/var/folders/ab/T/out", "/private/var/folders/ab/T/out"));
  CHECK(sameDarwinPath("/tmp/x/", "/private/tmp/x"));
  CHECK_FALSE(sameDarwinPath("/var/folders/ab/T/out", "/private/var/folders/ab/T/other"));
  CHECK_FALSE(sameDarwinPath("/vars/x", "/private/vars/x"));
}

TEST_CASE("darwin paths: containment holds across the two spellings and refuses a sibling") {
  CHECK(isWithinDarwinPath("/private/var/folders/ab/T/ws/src/a.c", "/var/folders/ab/T/ws"));
  CHECK(isWithinDarwinPath("/var/folders/ab/T/ws", "/private/var/folders/ab/T/ws"));
  CHECK_FALSE(isWithinDarwinPath("/var/folders/ab/T/ws2/a", "/var/folders/ab/T/ws"));
  CHECK_FALSE(isWithinDarwinPath("/private/var/folders/ab/T/ws/../x", "/var/folders/ab/T/ws"));
}
