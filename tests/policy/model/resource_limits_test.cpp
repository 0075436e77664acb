#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "policy/load/taskpack_loader.h"
#include "policy/model/resource_limits.h"
#include "policy/resolve/resolve.h"

using namespace lw;

namespace {

const TaskpackLoadOptions kOpts{"/home/alice"};

std::string taskpack(const std::string& specLimits, const std::string& stepLimits = "") {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specLimits +
         "  stages:\n    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
         "        - {name: a, run: [x]" +
         stepLimits + "}\n        - {name: b, run: [x]}\n";
}

std::vector<Diagnostic> diagnosticsOf(const std::string& text) {
  auto r = parseTaskpack(text, "tp.yaml", kOpts);
  if (r.ok()) return {};
  CHECK(r.error().code == ErrorCode::TaskpackInvalid);
  return r.error().diagnostics;
}

std::string line(const Diagnostic& d) {
  return d.location.file + ":" + std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + " " +
         d.location.path + ": " + d.message;
}

}  // namespace

TEST_CASE("resource limits: sizes are whole numbers of bytes or of KiB, MiB, GiB, TiB") {
  struct Case {
    const char* text;
    std::optional<std::int64_t> bytes;
  };
  for (const Case& c : std::vector<Case>{{"0", 0},
                                         {"4096", 4096},
                                         {"512KiB", 512 << 10},
                                         {"256MiB", 256 << 20},
                                         {"2GiB", std::int64_t{2} << 30},
                                         {"1TiB", std::int64_t{1} << 40},
                                         {"2GB", std::nullopt},
                                         {"2G", std::nullopt},
                                         {"2gib", std::nullopt},
                                         {"1.5GiB", std::nullopt},
                                         {"2 GiB", std::nullopt},
                                         {"-1", std::nullopt},
                                         {"GiB", std::nullopt},
                                         {"", std::nullopt},
                                         {"99999999999TiB", std::nullopt}}) {
    CAPTURE(c.text);
    CHECK(parseSize(c.text) == c.bytes);
  }
  SizeProblem p;
  CHECK(!parseSize("2GB", &p));
  CHECK(p.message == "is not a size: 'GB' is not a unit");
  CHECK(p.hint == "did you mean '2GiB'? Sizes are powers of 1024 (KiB, MiB, GiB, TiB)");
  CHECK(formatSize(std::int64_t{4} << 30) == "4GiB");
  CHECK(formatSize((std::int64_t{3} << 20) + 1) == std::to_string((3 << 20) + 1));
}

TEST_CASE("resource limits: the defaults, and spec.limits and a step's limits read with their units") {
  auto tp = parseTaskpack(
      taskpack(
          "  limits: {pids: 128, memory: 2GiB, fileSize: 512MiB, openFiles: 1024, cpuSeconds: 600, tmpSize: 64MiB}\n",
          ", limits: {memory: 1073741824, pids: 64}"),
      "tp.yaml", kOpts);
  REQUIRE(tp.ok());
  CHECK(tp->resourceLimits.pids == 128);
  CHECK(tp->resourceLimits.memoryBytes == std::int64_t{2} << 30);
  CHECK(tp->resourceLimits.fileSizeBytes == 512 << 20);
  CHECK(tp->resourceLimits.openFiles == 1024);
  CHECK(tp->resourceLimits.cpuSeconds == 600);
  CHECK(tp->resourceLimits.tmpBytes == 64 << 20);
  const Step& a = tp->stages[0].steps[0];
  CHECK(a.limits.resources.memoryBytes == std::int64_t{1} << 30);
  CHECK(a.limits.resources.pids == 64);
  CHECK(!a.limits.resources.openFiles);
  ResourceLimits d;
  CHECK(d.pids == 512);
  CHECK(d.memoryBytes == std::int64_t{4} << 30);
  CHECK(d.fileSizeBytes == std::int64_t{2} << 30);
  CHECK(d.openFiles == 4096);
  CHECK(!d.cpuSeconds);
  CHECK(d.tmpBytes == std::int64_t{1} << 30);
}

TEST_CASE("resource limits: bad values are TASKPACK_INVALID with file:line:col, the path and a hint") {
  SUBCASE("a decimal unit") {
    auto d = diagnosticsOf(taskpack("  limits: {memory: 2GB}\n"));
    REQUIRE(d.size() == 1);
    CHECK(line(d[0]) == "tp.yaml:5:20 spec.limits.memory: '2GB' is not a size: 'GB' is not a unit");
    CHECK(d[0].hint == "did you mean '2GiB'? Sizes are powers of 1024 (KiB, MiB, GiB, TiB)");
  }
  SUBCASE("a misspelt key") {
    auto d = diagnosticsOf(taskpack("  limits: {memroy: 2GiB}\n"));
    REQUIRE(d.size() == 1);
    CHECK(line(d[0]) == "tp.yaml:5:12 spec.limits.memroy: unknown key 'memroy'");
    CHECK(d[0].hint == "did you mean 'memory'?");
  }
  SUBCASE("out of range, in a step") {
    auto d = diagnosticsOf(taskpack("", ", limits: {pids: 2, fileSize: 10KiB}"));
    REQUIRE(d.size() == 2);
    CHECK(line(d[0]) == "tp.yaml:9:46 spec.stages[0].steps[0].limits.pids: '2' is not a whole number from 8 to 65536");
    CHECK(line(d[1]) == "tp.yaml:9:59 spec.stages[0].steps[0].limits.fileSize: '10KiB' is out of range");
    CHECK(d[1].hint == "write a size from 1MiB to 1TiB");
  }
  SUBCASE("a count with a unit") {
    auto d = diagnosticsOf(taskpack("  limits: {openFiles: 4Ki}\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "'4Ki' is not a whole number from 32 to 1048576");
  }
}

TEST_CASE("resource limits: resolution names where each came from") {
  auto tp = parseTaskpack(taskpack("  limits: {memory: 2GiB, pids: 128}\n", ", limits: {pids: 64}"), "tp.yaml", kOpts);
  REQUIRE(tp.ok());
  auto r = resolvePolicies(*tp, HostConfig{}, {false, "/home/alice"});
  REQUIRE(r.ok());
  const EffectiveStep& a = (*r)[0];
  const EffectiveStep& b = (*r)[1];
  CHECK(a.resources.pids == 64);
  CHECK(b.resources.pids == 128);
  CHECK(a.resources.memoryBytes == std::int64_t{2} << 30);
  CHECK(a.resources.openFiles == 4096);
  CHECK(a.origins.at("limits.pids") == "step limits override (tp.yaml:10)");
  CHECK(b.origins.at("limits.pids") == "taskpack spec.limits (tp.yaml:5)");
  CHECK(a.origins.at("limits.memory") == "taskpack spec.limits (tp.yaml:5)");
  CHECK(a.origins.at("limits.openFiles") == "default");
}
