// The fake model server, compiled into this test binary (the local HTTP
// server it runs on comes with fake_github_fixture.cpp).
#include "support/fake_model.cpp"  // NOLINT(bugprone-suspicious-include)
