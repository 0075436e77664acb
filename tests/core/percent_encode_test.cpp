#include <doctest/doctest.h>

#include "core/http.h"

// One encoder for a GitHub label in a path and a Docker filter in a query.
TEST_CASE("http percentEncode: unreserved characters stay, every other byte is %XX in upper-case hex") {
  CHECK(lw::http::percentEncode("Az09-_.~") == "Az09-_.~");
  CHECK(lw::http::percentEncode("good first issue") == "good%20first%20issue");
  CHECK(lw::http::percentEncode("a/b?c=d&e#f%") == "a%2Fb%3Fc%3Dd%26e%23f%25");
  CHECK(lw::http::percentEncode("{\"label\":[\"x\"]}") == "%7B%22label%22%3A%5B%22x%22%5D%7D");
  CHECK(lw::http::percentEncode("\xc3\xa9\x01\xff") == "%C3%A9%01%FF");
  CHECK(lw::http::percentEncode("").empty());
}
