// The local HTTP server of tests/support, compiled once for this binary.
#include "support/local_http_server.cpp"  // NOLINT(bugprone-suspicious-include)
