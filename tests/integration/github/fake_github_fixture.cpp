// The fake GitHub server is compiled into this test binary: lw_test_support
// links neither Boost.Beast's threads nor Boost.JSON's users of it.
#include "support/fake_github.cpp"        // NOLINT(bugprone-suspicious-include)
#include "support/local_http_server.cpp"  // NOLINT(bugprone-suspicious-include)
