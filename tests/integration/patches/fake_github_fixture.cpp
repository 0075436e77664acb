// The fake GitHub server compiled into this test binary (see
// tests/integration/github/fake_github_fixture.cpp).
#include "support/fake_github.cpp"        // NOLINT(bugprone-suspicious-include)
#include "support/local_http_server.cpp"  // NOLINT(bugprone-suspicious-include)
