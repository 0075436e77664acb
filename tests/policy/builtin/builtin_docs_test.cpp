// docs/builtin-steps.md is written by hand; this keeps it from drifting
// from the catalogue (policy/builtin/builtin_catalog.h) that validate and explain use.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "policy/builtin/builtin_catalog.h"

using namespace lw;

namespace {

std::string readDoc() {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/docs/builtin-steps.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text under "## <heading>" up to the next "## ".
std::string section(const std::string& doc, const std::string& heading) {
  std::size_t start = doc.find("\n## " + heading + "\n");
  if (start == std::string::npos) return {};
  std::size_t end = doc.find("\n## ", start + 1);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The table row whose first cell is `key` (in backticks).
std::string row(const std::string& text, const std::string& key) {
  std::size_t at = text.find("\n| `" + key + "` |");
  if (at == std::string::npos) return {};
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST_CASE("builtin docs: every built-in, its role, tools and every parameter with its default are in the page") {
  const std::string doc = readDoc();
  REQUIRE_FALSE(doc.empty());
  for (const BuiltinStep& b : builtinSteps()) {
    const std::string uses = "builtin/" + std::string(b.name);
    CAPTURE(uses);
    std::string grants = row(doc, uses);
    REQUIRE_FALSE(grants.empty());
    CHECK(grants.find("| " + std::string(toString(b.role)) + " |") != std::string::npos);
    for (std::string_view tool : b.tools) {
      CAPTURE(tool);
      CHECK(grants.find("`" + std::string(tool) + "`") != std::string::npos);
    }
    std::string own = section(doc, uses);
    REQUIRE_FALSE(own.empty());
    for (const BuiltinParam& p : b.params) {
      CAPTURE(p.name);
      std::string line = row(own, std::string(p.name));
      REQUIRE_FALSE(line.empty());
      CHECK(line.find(p.defaultJson.empty() ? std::string("| required |")
                                            : "| `" + std::string(p.defaultJson) + "` |") != std::string::npos);
      for (std::string_view choice : p.choices) CHECK(line.find("`" + std::string(choice) + "`") != std::string::npos);
    }
  }
}
