// The local model server, compiled into this test binary only.
#include "support/fake_model.cpp"         // NOLINT(bugprone-suspicious-include)
#include "support/local_http_server.cpp"  // NOLINT(bugprone-suspicious-include)
