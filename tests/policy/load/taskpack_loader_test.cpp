#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "policy/load/taskpack_loader.h"

using namespace lw;

namespace {

const TaskpackLoadOptions kOpts{"/home/alice"};

const char* kValid = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata:
  name: pr-review
spec:
  sandbox:
    preferredBackends: [linux-bwrap, linux-landlock]
    networkMode: none
    requiredCapabilities: [filesystemReadContainment, networkIsolation]
    deniedReadPaths: [~/.ssh, /etc/shadow]
  isolation: L1
  guardrails:
    loop: {warnRepeats: 3, stopRepeats: 5, windowSeconds: 60, suspiciousCallsPerTool: 30, maxCallsPerTool: 50}
    breaker: {failures: 5, windowSeconds: 60, cooldownSeconds: 30, escalateAfterCycles: 2}
  limits: {wallTimeMs: 3_600_000, maxModelCalls: 256, maxToolCalls: 1000, maxOutputBytes: 1048576}
  lanes:
    - {name: primary, api: openai-chat, baseUrl: "https://api.example.com/v1", model: "m", apiKeyEnv: OPENAI_API_KEY}
  stages:
    - name: review
      on: [pull_request.opened, pull_request.synchronize]
      steps:
        - name: security
          run: ["./.loopwright/agents/security.sh"]
          role: reviewer
          tools: [github.pulls.diff, model.complete]
          lane: primary
          sandbox: {networkMode: loopback-only}
          limits: {wallTimeMs: 600000}
        - name: fix
          run: [./.loopwright/agents/fix.sh]
          role: author
          writable: [src/**, docs/]
  publication: {review: comment, checks: true, summary: true, failOn: error}
)";

// Parses `text` and returns the diagnostics as "line:col path: message" lines.
std::vector<std::string> problems(const std::string& text) {
  auto r = parseTaskpack(text, "tp.yaml", kOpts);
  std::vector<std::string> out;
  if (r.ok()) return out;
  CHECK(r.error().code == ErrorCode::TaskpackInvalid);
  for (const auto& d : r.error().diagnostics)
    out.push_back(std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + " " + d.location.path +
                  ": " + d.message);
  return out;
}

std::string withSpec(const std::string& specBody) {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specBody;
}

const std::string kStage =
    "  stages:\n    - name: s\n      on: [workflow_dispatch]\n      steps:\n        - {name: a, run: [true]}\n";

}  // namespace

TEST_CASE("taskpack loader: a complete valid taskpack loads with every field") {
  auto r = parseTaskpack(kValid, "tp.yaml", kOpts);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  const Taskpack& tp = *r;
  CHECK(tp.name == "pr-review");
  REQUIRE(tp.sandbox);
  CHECK(*tp.sandbox->preferredBackends == std::vector{BackendId::LinuxBwrap, BackendId::LinuxLandlock});
  CHECK(tp.sandbox->networkMode == NetworkMode::None);
  CHECK(tp.sandbox->deniedReadPaths == std::vector<std::string>{"/home/alice/.ssh", "/etc/shadow"});
  CHECK(tp.limits.wallTimeMs == 3'600'000);
  REQUIRE(tp.lanes.size() == 1);
  CHECK(tp.lanes[0].apiKeyEnv == "OPENAI_API_KEY");
  REQUIRE(tp.stages.size() == 1);
  REQUIRE(tp.stages[0].steps.size() == 2);
  const Step& sec = tp.stages[0].steps[0];
  CHECK(sec.lane == std::optional<std::string>("primary"));
  CHECK(sec.sandbox->networkMode == NetworkMode::LoopbackOnly);
  CHECK(sec.limits.wallTimeMs == std::optional<std::int64_t>(600000));
  CHECK(sec.location.line == 22);
  CHECK(sec.location.column == 11);
  const Step& fix = tp.stages[0].steps[1];
  CHECK(fix.role == Role::Author);
  CHECK(fix.run == std::vector<std::string>{"./.loopwright/agents/fix.sh"});
  CHECK(fix.writable == std::vector<std::string>{"src/**", "docs/"});
}

TEST_CASE("taskpack loader: defaults when optional fields are omitted") {
  auto r = parseTaskpack(withSpec(kStage), "tp.yaml", kOpts);
  REQUIRE(r.ok());
  CHECK_FALSE(r->sandbox.has_value());
  CHECK_FALSE(r->isolation.has_value());
  CHECK(r->guardrails.loop.warnRepeats == 3);
  CHECK(r->guardrails.loop.stopRepeats == 5);
  CHECK(r->guardrails.breaker.cooldownSeconds == 30);
  CHECK(r->limits.maxOutputBytes == 1048576);
  CHECK(r->publication.failOn == FailOn::Error);
  CHECK(r->stages[0].steps[0].role == Role::Reviewer);
}

TEST_CASE("taskpack loader: five different mistakes are all reported with line:column") {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/taskpacks/five-mistakes.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto p = problems(text);
  REQUIRE(p.size() == 5);
  CHECK(p[0] == "4:9 metadata.name: 'Bad_Name' is not a valid name");
  CHECK(p[1] == "7:5 spec.sandbox.networkmode: unknown key 'networkmode'");
  CHECK(p[2] == "8:38 spec.sandbox.preferredBackends[1]: 'linux-bwrap' is listed twice");
  CHECK(p[3] == "9:14 spec.isolation: 'L9' is not one of 'L1', 'L2' or 'L3'");
  CHECK(p[4] == "16:17 spec.stages[0].steps[0].role: 'superuser' is not one of 'triage', 'reviewer' or 'author'");
}

TEST_CASE("taskpack loader: unknown keys get a did-you-mean hint") {
  auto r = parseTaskpack(withSpec("  sandbox: {networkMod: none}\n" + kStage), "tp.yaml", kOpts);
  REQUIRE(!r.ok());
  REQUIRE(r.error().diagnostics.size() == 1);
  CHECK(r.error().diagnostics[0].hint == "did you mean 'networkMode'?");
}

TEST_CASE("taskpack loader: bounds of every list and number") {
  struct Case {
    const char* name;
    std::string spec;
    std::string expected;
  };
  std::vector<Case> cases = {
      {"preferredBackends empty", "  sandbox: {preferredBackends: []}\n",
       "spec.sandbox.preferredBackends: has 0 items"},
      {"preferredBackends eight",
       "  sandbox: {preferredBackends: [linux-bwrap, linux-landlock, linux-gvisor, docker, macos-seatbelt, "
       "direct-dedicated, k8s-pod, linux-bwrap]}\n",
       "spec.sandbox.preferredBackends: has 8 items"},
      {"unknown backend", "  sandbox: {preferredBackends: [firejail]}\n",
       "spec.sandbox.preferredBackends[0]: 'firejail' is not one of"},
      {"capability twice", "  sandbox: {requiredCapabilities: [networkIsolation, networkIsolation]}\n",
       "spec.sandbox.requiredCapabilities[1]: 'networkIsolation' is listed twice"},
      {"relative denied path", "  sandbox: {deniedReadPaths: [secrets]}\n",
       "spec.sandbox.deniedReadPaths[0]: 'secrets' is not an absolute path"},
      {"unknown network mode", "  sandbox: {networkMode: host}\n", "spec.sandbox.networkMode: 'host' is not one of"},
      {"negative limit", "  limits: {maxToolCalls: -1}\n",
       "spec.limits.maxToolCalls: '-1' is not a whole number from 0 to 1000000"},
      {"wall time too small", "  limits: {wallTimeMs: 5}\n", "spec.limits.wallTimeMs: '5' is not a whole number"},
      {"quoted number", "  limits: {maxToolCalls: \"5\"}\n", "spec.limits.maxToolCalls: '5' is not a whole number"},
      {"warn above stop", "  guardrails: {loop: {warnRepeats: 5, stopRepeats: 3}}\n",
       "spec.guardrails.loop: warnRepeats (5) must be below stopRepeats (3)"},
      {"yes is not a bool", "  publication: {checks: yes}\n", "spec.publication.checks: 'yes' is not true or false"},
      {"maxConcurrency zero", "  maxConcurrency: 0\n", "spec.maxConcurrency: '0' is not a whole number from 1 to 64"},
      {"http lane", "  lanes: [{name: a, api: openai-chat, baseUrl: 'http://example.com', model: m, apiKeyEnv: K}]\n",
       "spec.lanes[0].baseUrl: 'http://example.com' is not an https:// URL"},
      {"negative price",
       "  lanes: [{name: a, api: openai-chat, baseUrl: 'https://x', model: m, apiKeyEnv: K, pricePerMTok: -1}]\n",
       "spec.lanes[0].pricePerMTok: this is not a price from 0 to 10000"},
      {"infinite price",
       "  lanes: [{name: a, api: openai-chat, baseUrl: 'https://x', model: m, apiKeyEnv: K, pricePerMTok: .inf}]\n",
       "spec.lanes[0].pricePerMTok: this is not a price from 0 to 10000"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto p = problems(withSpec(c.spec + kStage));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find(c.expected) != std::string::npos);
  }
}

TEST_CASE("taskpack loader: a lane's price per million tokens is read, and absent when not given") {
  auto tp = parseTaskpack(withSpec("  lanes:\n    - {name: a, api: openai-chat, baseUrl: 'https://x', model: m, "
                                   "apiKeyEnv: K, pricePerMTok: 0.40}\n    - {name: b, api: openai-chat, "
                                   "baseUrl: 'https://x', model: m, apiKeyEnv: K}\n" +
                                   std::string(kStage)),
                          "t.yaml", kOpts);
  REQUIRE(tp);
  REQUIRE(tp->lanes.size() == 2);
  // The single price of earlier taskpacks is both the input and the output price.
  REQUIRE(tp->lanes[0].prices);
  CHECK(tp->lanes[0].prices->inputPerMTok == doctest::Approx(0.40));
  CHECK(tp->lanes[0].prices->outputPerMTok == doctest::Approx(0.40));
  CHECK_FALSE(tp->lanes[1].prices.has_value());
}

TEST_CASE("taskpack loader: a lane's input and output prices are read apart") {
  const std::string lane = "  lanes:\n    - {name: a, api: openai-chat, baseUrl: 'https://x', model: m, apiKeyEnv: K, ";
  auto tp =
      parseTaskpack(withSpec(lane + "inputPricePerMTok: 0.40, outputPricePerMTok: 1.60}\n" + kStage), "t.yaml", kOpts);
  REQUIRE(tp);
  REQUIRE(tp->lanes[0].prices);
  CHECK(tp->lanes[0].prices->inputPerMTok == doctest::Approx(0.40));
  CHECK(tp->lanes[0].prices->outputPerMTok == doctest::Approx(1.60));
  auto half = problems(withSpec(lane + "inputPricePerMTok: 0.40}\n" + kStage));
  REQUIRE(half.size() == 1);
  CHECK(half[0].find("spec.lanes[0]: gives inputPricePerMTok alone") != std::string::npos);
  auto both =
      problems(withSpec(lane + "pricePerMTok: 1, inputPricePerMTok: 0.40, outputPricePerMTok: 1.60}\n" + kStage));
  REQUIRE(both.size() == 1);
  CHECK(both[0].find("spec.lanes[0]: gives pricePerMTok and inputPricePerMTok/outputPricePerMTok") !=
        std::string::npos);
}

TEST_CASE("taskpack loader: steps, stages and references") {
  SUBCASE("run and uses both") {
    auto p =
        problems(withSpec("  stages:\n    - name: s\n      on: [issues]\n      steps:\n        - {name: a, run: [x], "
                          "uses: builtin/x}\n"));
    REQUIRE(p.size() == 2);
    CHECK(p[0].find("'builtin/x' is not a built-in step of this version") != std::string::npos);
    CHECK(p[1] == "9:11 spec.stages[0].steps[0]: has both 'run' and 'uses'");
  }
  SUBCASE("a built-in step this version does not ship") {
    auto p = problems(withSpec(
        "  stages:\n    - name: s\n      on: [issues]\n      steps:\n        - {name: a, uses: builtin/autofix}\n"));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "9:27 spec.stages[0].steps[0].uses: 'builtin/autofix' is not a built-in step of this version");
  }
  SUBCASE("neither run nor uses") {
    auto p = problems(withSpec("  stages:\n    - name: s\n      on: [issues]\n      steps:\n        - {name: a}\n"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("has neither 'run' nor 'uses'") != std::string::npos);
  }
  SUBCASE("unknown event with a suggestion") {
    auto r = parseTaskpack(withSpec("  stages:\n    - name: s\n      on: [pull_requests.opened]\n      steps:\n        "
                                    "- {name: a, run: [x]}\n"),
                           "tp.yaml", kOpts);
    REQUIRE(!r.ok());
    CHECK(r.error().diagnostics[0].hint == "did you mean 'pull_request'?");
  }
  SUBCASE("needs a later stage") {
    auto p =
        problems(withSpec("  stages:\n    - name: a\n      on: [issues]\n      needs: [b]\n      steps: [{name: x, "
                          "run: [x]}]\n    - name: b\n      on: [issues]\n      steps: [{name: y, run: [y]}]\n"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("'b' is not an earlier stage") != std::string::npos);
  }
  SUBCASE("duplicate step names") {
    auto p = problems(withSpec(
        "  stages:\n    - name: a\n      on: [issues]\n      steps: [{name: x, run: [x]}, {name: x, run: [y]}]\n"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("step 'x' is defined twice") != std::string::npos);
  }
  SUBCASE("undefined lane") {
    auto p =
        problems(withSpec("  stages:\n    - name: a\n      on: [issues]\n      steps: [{name: x, run: [x], lane: nope, "
                          "tools: [model.complete]}]\n"));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "8:15 spec.stages[0].steps[0]: lane 'nope' is not defined");
  }
  SUBCASE("writable scope outside the workspace, and on a reviewer") {
    auto p = problems(withSpec(
        "  stages:\n    - name: a\n      on: [issues]\n      steps: [{name: x, run: [x], writable: [../etc]}]\n"));
    REQUIRE(p.size() == 2);
    CHECK(p[0].find("'../etc' is not a path inside the workspace") != std::string::npos);
    CHECK(p[1].find("only an author step has a writable scope") != std::string::npos);
  }
  SUBCASE("missing required keys") {
    auto p = problems("apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {}\nspec: {}\n");
    REQUIRE(p.size() == 2);
    CHECK(p[0] == "3:11 metadata.name: required key 'name' is missing");
    CHECK(p[1] == "4:7 spec.stages: required key 'stages' is missing");
  }
}

TEST_CASE("taskpack loader: hostile input is TASKPACK_INVALID, never a crash or hang") {
  SUBCASE("over 64 KiB, checked before parsing") {
    std::string big(kTaskpackMaxBytes + 1, '#');
    auto p = problems(big);
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("is 65537 bytes; the limit is 65536") != std::string::npos);
  }
  SUBCASE("binary") {
    auto p = problems(std::string("apiVersion: x\n\0\x01\x02", 17));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "2:1 : contains a NUL byte: this is not a YAML text file");
  }
  SUBCASE("invalid UTF-8") {
    auto p = problems("metadata:\n  name: \xff\xfe\n");
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "2:9 : is not valid UTF-8 here");
  }
  SUBCASE("deeply nested flow") {
    auto p = problems(std::string(5000, '[') + std::string(5000, ']'));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("nests deeper than 64 levels") != std::string::npos);
  }
  SUBCASE("deeply nested block sequence") {
    std::string text;
    for (int i = 0; i < 200; ++i) text += "- ";
    auto p = problems(text + "x\n");
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("nests deeper than 64 levels") != std::string::npos);
  }
  SUBCASE("alias bomb") {
    std::string text = "a: &a [x, x, x, x, x, x, x, x, x]\n";
    char prev = 'a';
    for (char c = 'b'; c <= 'z'; ++c, ++prev)
      text += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
              ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
    auto p = problems(text);
    CHECK(!p.empty());
  }
  SUBCASE("alias bomb inside the schema") {
    std::string text = withSpec(
        "  limits: &l {wallTimeMs: 1000}\n  stages: &s\n    - name: a\n      on: [issues]\n      steps: [{name: x, "
        "run: [x], limits: *l}]\n");
    CHECK(problems(text).empty());
  }
  SUBCASE("syntax error has a position") {
    auto p = problems("apiVersion: [unclosed\nkind: Taskpack\n");
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("YAML syntax error") != std::string::npos);
    CHECK(p[0].rfind("0:0", 0) != 0);
  }
  SUBCASE("wrong types everywhere") {
    auto p = problems("apiVersion: [1]\nkind: {a: b}\nmetadata: 5\nspec: [x]\n");
    CHECK(p.size() == 4);
  }
  SUBCASE("empty and scalar documents") {
    CHECK(problems("").size() == 1);
    CHECK(problems("just a string").size() == 1);
    CHECK(problems("---\na: 1\n---\nb: 2\n") == std::vector<std::string>{"3:1 : holds more than one YAML document"});
  }
  SUBCASE("duplicate keys") {
    auto p = problems(withSpec("  isolation: L1\n  isolation: L2\n" + kStage));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("key 'isolation' appears twice") != std::string::npos);
  }
}

TEST_CASE("taskpack loader: a quote left open is a syntax error, not a string that takes in the rest of the file") {
  // yaml-cpp 0.7 alone closes it at the end of a text that ends with a line
  // break, and the stages below would be read as part of the name.
  std::string text =
      "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n"
      "  isolation: \"L1\n" +
      kStage + "\n\n";
  std::vector<std::string> p = problems(text);
  REQUIRE(p.size() == 1);
  CHECK(p[0].find(" : YAML syntax error: illegal EOF in scalar") != std::string::npos);
}

TEST_CASE("taskpack loader: a leading document marker and comments are fine") {
  CHECK(problems("# comment\n---\n" + withSpec(kStage)).empty());
  CHECK(problems("--- # start\n" + withSpec(kStage) + "# trailing\n").empty());
}

TEST_CASE("taskpack loader: loadTaskpack reads files and bounds their size") {
  auto missing = loadTaskpack("/nonexistent/taskpack.yaml", kOpts);
  REQUIRE(!missing.ok());
  CHECK(missing.error().code == ErrorCode::TaskpackInvalid);
  CHECK(missing.error().message.find("No such file") != std::string::npos);
  auto dir = loadTaskpack("/tmp", kOpts);
  REQUIRE(!dir.ok());
  CHECK(dir.error().message == "/tmp is not a regular file");
}
