// The demo's stand-in reviewer, compiled into this test binary.
#include "support/demo_reviewer.cpp"  // NOLINT(bugprone-suspicious-include)
