#include "core/fnv1a.h"

#include <doctest/doctest.h>

// The test vectors of the FNV reference code and draft-eastlake-fnv.
TEST_CASE("fnv1a: the published 64-bit and 32-bit test vectors") {
  CHECK(lw::fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(lw::fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(lw::fnv1a64("foobar") == 0x85944171f73967e8ull);
  CHECK(lw::fnv1a32("") == 0x811c9dc5u);
  CHECK(lw::fnv1a32("a") == 0xe40c292cu);
  CHECK(lw::fnv1a32("foobar") == 0xbf9cf968u);
}

TEST_CASE("fnv1a: a hash continued over two parts is the hash of the whole") {
  CHECK(lw::fnv1a64("bar", lw::fnv1a64("foo")) == lw::fnv1a64("foobar"));
  CHECK(lw::fnv1a32("bar", lw::fnv1a32("foo")) == lw::fnv1a32("foobar"));
  // Bytes above 0x7f are hashed as unsigned: a signed char would differ.
  CHECK(lw::fnv1a64("\xff") == ((0xcbf29ce484222325ull ^ 0xffull) * 1099511628211ull));
}
