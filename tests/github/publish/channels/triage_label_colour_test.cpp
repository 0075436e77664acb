#include <doctest/doctest.h>

#include "github/publish/channels/channels.h"

// Labels already created in repositories carry these colours: the same name
// keeps its colour in every run and version.
TEST_CASE("triage labels: a label's colour is the one already given to its name") {
  CHECK(lw::github::labelColour("bug") == "d58d75");
  CHECK(lw::github::labelColour("needs-info") == "5f10b5");
}
