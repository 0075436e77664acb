// The fake model server, compiled into this test binary.
#include "support/fake_model.cpp"  // NOLINT(bugprone-suspicious-include)
