// The fake GitHub server, compiled into this test binary for the REST read
// tests (lw_test_support links neither Boost.Beast's threads nor Boost.JSON).
#include "support/fake_github.cpp"        // NOLINT(bugprone-suspicious-include)
#include "support/local_http_server.cpp"  // NOLINT(bugprone-suspicious-include)
