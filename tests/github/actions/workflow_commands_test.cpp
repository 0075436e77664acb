#include <sstream>

#include <doctest/doctest.h>

#include "github/actions/workflow_commands.h"

using namespace lw;
using namespace lw::github;

TEST_CASE("workflow commands: data and properties are escaped as actions/toolkit does") {
  CHECK(escapeData("50% done\r\nnext") == "50%25 done%0D%0Anext");
  CHECK(escapeData("a:b,c") == "a:b,c");
  CHECK(escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A");
}

TEST_CASE("workflow commands: a finding becomes one annotation line") {
  Finding f;
  f.step = "lint";
  f.ruleId = "style/x";
  f.severity = Severity::Warning;
  f.message = "line one\n::error::injected";
  f.path = "src/a,b.c";
  f.line = 3;
  f.endLine = 5;
  CHECK(annotationCommand(f) ==
        "::warning file=src/a%2Cb.c,line=3,endLine=5,title=lint%3A style/x::line one%0A::error::injected");
  f.path.clear();
  f.step.clear();
  f.severity = Severity::Notice;
  CHECK(annotationCommand(f) == "::notice title=style/x::line one%0A::error::injected");
}

TEST_CASE("workflow commands: a warning or an error as an annotation, a warning as one step-summary line") {
  CHECK(lw::github::warningCommand("loopwright: no sandbox", "a\nb, c") ==
        "::warning title=loopwright%3A no sandbox::a%0Ab, c");
  CHECK(lw::github::errorCommand("loopwright: below the floor", "a\r\n::error::b 100%") ==
        "::error title=loopwright%3A below the floor::a%0D%0A::error::b 100%25");
  CHECK(lw::github::warningSummaryLine("a\nb") == "> **Warning:** a b\n\n");
}

TEST_CASE("workflow commands: untrusted text is fenced by stop-commands with a token it does not contain") {
  std::ostringstream log;
  echoUntrusted(log, "::set-output name=x::y\n", "tok1");
  CHECK(log.str() == "::stop-commands::tok1\n::set-output name=x::y\n::tok1::\n");
  std::ostringstream log2;
  echoUntrusted(log2, "contains tok2 already", "tok2");
  std::string s = log2.str();
  CHECK(s.rfind("::stop-commands::lw-", 0) == 0);
  std::string token = s.substr(17, s.find('\n') - 17);
  CHECK(token != "tok2");
  CHECK(s == "::stop-commands::" + token + "\ncontains tok2 already\n::" + token + "::\n");
  CHECK(randomToken() != randomToken());
}
