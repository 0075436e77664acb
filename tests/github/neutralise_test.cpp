#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "github/fingerprint.h"
#include "github/neutralise.h"

using namespace lw;
using namespace lw::github;

namespace {

const std::string WJ = "\xE2\x81\xA0";  // U+2060 WORD JOINER

LinkScope scope() {
  LinkScope s;
  s.webHost = "github.com";
  s.repo = {"octo", "hello"};
  return s;
}

std::string md(const std::string& text, std::size_t max = kMaxMessageBytes) {
  return neutraliseMarkdown(text, scope(), max);
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("neutralise: mentions, team mentions and addresses get a word joiner") {
  CHECK(md("ping @alice and @octo/admins") == "ping @" + WJ + "alice and @" + WJ + "octo/admins");
  CHECK(md("@bob first") == "@" + WJ + "bob first");
  CHECK(md("(@carol)") == "(@" + WJ + "carol)");
  CHECK(md("\\@dave") == "\\@" + WJ + "dave");
  CHECK(md("mail me at me@example.org") == "mail me at me@" + WJ + "example.org");  // no mailto: autolink
  CHECK(md("a lone @ sign") == "a lone @ sign");
}

TEST_CASE("neutralise: references to other repositories' issues leave no backlink there") {
  CHECK(md("same as other/project#12") == "same as other/project" + WJ + "#12");
  CHECK(md("same as other/project\\#12") == "same as other/project\\" + WJ + "#12");
  CHECK(md("see #12 and GH-3") == "see #12 and GH-3");  // this repository's own issues stay linked
  CHECK(md("C# 12 and item#3") == "C# 12 and item#3");
}

TEST_CASE("neutralise: raw HTML, hidden comments and a forged loopwright marker are escaped") {
  CHECK(md("<details><summary>x</summary>hidden</details>") ==
        "&lt;details>&lt;summary>x&lt;/summary>hidden&lt;/details>");
  CHECK(md("<img src=https://evil.example/p.png>") == "&lt;img src=https:" + WJ + "//evil.example/p.png>");
  CHECK(md("<a href=\"https://evil.example\">x</a>") == "&lt;a href=\"https:" + WJ + "//evil.example\">x&lt;/a>");
  CHECK(md("before <!-- secret instructions --> after") == "before &lt;!-- secret instructions --> after");
  std::string forged = findingMarker("0123456789abcdef");
  std::string out = md("fine " + forged);
  CHECK(findingMarkersIn(out).empty());
  CHECK_FALSE(has(out, "<!--"));
  CHECK(md("\\<b>") == "&lt;b>");
  // Comparisons are no tags and stay readable.
  CHECK(md("if a < b and c <= d") == "if a < b and c <= d");
}

TEST_CASE("neutralise: character references that would decode to a mention or a tag are escaped") {
  CHECK(md("&#64;alice") == "&amp;#64;alice");
  CHECK(md("&#60;img&#62;") == "&amp;#60;img&amp;#62;");
  CHECK(md("&lt;kept&gt; &amp; &quot;") == "&lt;kept&gt; &amp; &quot;");
  CHECK(md("fish & chips") == "fish & chips");
}

TEST_CASE("neutralise: images are removed, alt text kept as text") {
  CHECK(md("see ![tracking pixel](https://evil.example/t.gif) here") == "see (image removed: tracking pixel) here");
  CHECK(md("![](https://github.com/octo/hello/raw/main/a.png)") == "(image removed)");
  // A reference-style image loses its '!' and is at most a (harmless) bracket.
  CHECK_FALSE(has(md("![x][ref]"), "!["));
}

TEST_CASE("neutralise: links stay only within the repository, others become plain text") {
  SUBCASE("kept") {
    CHECK(md("[the file](https://github.com/octo/hello/blob/main/a.c#L3)") ==
          "[the file](https://github.com/octo/hello/blob/main/a.c#L3)");
    CHECK(md("[docs](docs/guide.md)") == "[docs](docs/guide.md)");
    CHECK(md("[issue](/octo/hello/issues/3)") == "[issue](/octo/hello/issues/3)");
    CHECK(md("https://github.com/octo/hello/pull/7") == "https://github.com/octo/hello/pull/7");
  }
  SUBCASE("off-site, another repository, tricks") {
    CHECK(md("[click](https://evil.example/x)") == "click (https:" + WJ + "//evil.example/x)");
    CHECK(md("[other](https://github.com/octo/hello-evil/x)") == "other (https:" + WJ + "//github.com/octo/hello-evil/x)");
    CHECK(md("[up](../../../evil/repo)") == "up (../../../evil/repo)");
    CHECK(md("[pr](//evil.example/x)") == "pr (//evil.example/x)");
    CHECK(md("[js](javascript:alert(1))") == "js (javascript:alert(1))");
    CHECK(md("[at](https://github.com@evil.example/octo/hello)") ==
          "at (https:" + WJ + "//github.com@" + WJ + "evil.example/octo/hello)");
    CHECK(md("[ent](https&#58;//evil.example)") == "ent (https&amp;#58;//evil.example)");
    // A ']' inside a code span does not end the link text (CommonMark).
    CHECK(md("[a `]` b](//evil.example)") == "a `]` b (//evil.example)");
  }
  SUBCASE("a kept link's title cannot hide a marker") {
    CHECK(md("[x](https://github.com/octo/hello \"<!-- loopwright:triage -->\")") ==
          "[x](https://github.com/octo/hello \"&lt;!-- loopwright:triage -->\")");
  }
  SUBCASE("bare URLs and www are not autolinked") {
    CHECK(md("go to https://evil.example/x now") == "go to https:" + WJ + "//evil.example/x now");
    CHECK(md("www.evil.example") == "www" + WJ + ".evil.example");
  }
  SUBCASE("reference definitions are disabled") {
    std::string out = md("[click][r]\n\n[r]: https://evil.example\n");
    CHECK(has(out, "\\[r]:"));
    CHECK_FALSE(has(out, "https://evil"));
  }
  SUBCASE("a link that only forms once an image took its backtick away is caught too") {
    // In the step's text the ']' after the image is in a code span; removing
    // the image regroups the spans, and GitHub parses what is posted.
    std::string out = md("[a ![i](`) `]x` ](//evil.example)");
    CHECK_FALSE(has(out, "](//evil"));
    CHECK(has(out, "(//evil.example)"));
  }
  SUBCASE("an unmatched bracket is escaped") {
    CHECK(md("[a](https://evil.example") == "\\[a](https:" + WJ + "//evil.example");
  }
}

TEST_CASE("neutralise: control and bidi characters are removed, invalid UTF-8 dropped") {
  CHECK(md("safe\u202Eevil\u2066x\u2069\u200F") == "safeevilx");
  CHECK(md(std::string("bell\x07 esc\x1b[31m red\r\n")) == "bell esc\\[31m red\n");  // an unmatched '[' is escaped
  CHECK(md(std::string("bad \xff\xfe bytes \xc3\xa9")) == "bad  bytes \xc3\xa9");
  CHECK(md("tab\tkept\nnewline kept") == "tab\tkept\nnewline kept");
}

TEST_CASE("neutralise: lengths are bounded with a note, never inside a character") {
  std::string huge(100000, 'x');
  std::string out = md(huge);
  CHECK(out.size() <= kMaxMessageBytes);
  CHECK(out.substr(out.size() - 11) == "(truncated)");
  std::string accents;
  for (int i = 0; i < 5000; ++i) accents += "\xc3\xa9";
  std::string cut = md(accents, 101);
  CHECK(cut.size() <= 101);
  CHECK(neutraliseMarkdown(cut, scope(), 101) == cut);  // valid UTF-8: a second pass keeps it
  CHECK(neutraliseMarkdown(std::string(70000, 'c'), scope(), kMaxCommentBytes).size() <= kMaxCommentBytes);
  // Escaping grows the text: the bound holds after it.
  CHECK(md(std::string(3000, '<') + std::string(3000, 'a')).size() <= kMaxMessageBytes);
  CHECK(md(std::string(5000, '<') + "b").size() <= kMaxMessageBytes);
}

TEST_CASE("neutralise: a code fence left open is closed, also after a cut") {
  CHECK(md("look:\n```\ncode") == "look:\n```\ncode\n```\n");
  CHECK(md("````c\nx\n```\n") == "````c\nx\n```\n````\n");
  std::string cut = md("```\n" + std::string(10000, 'y'));
  CHECK(has(cut, "\n```\n\n(truncated)"));
  CHECK(md("inline ``` not a fence ```") == "inline ``` not a fence ```");
}

TEST_CASE("neutralise: suggestions keep their code, lose unsafe characters, refuse marker forgery") {
  CHECK(neutraliseSuggestion("if (a < b) { x = y; } // @Override\n") == "if (a < b) { x = y; } // @Override\n");
  CHECK(neutraliseSuggestion("x = 1;\u202E // evil\n") == "x = 1; // evil\n");
  std::string why;
  CHECK_FALSE(neutraliseSuggestion("a\n<!--  LOOPWRIGHT:finding:0123456789abcdef -->\n", &why));
  CHECK(why == "the suggestion contained loopwright's hidden-marker syntax");
  CHECK_FALSE(neutraliseSuggestion(std::string(kMaxSuggestionBytes + 1, 'z'), &why));
  CHECK(has(why, "longer than 20000"));
}

TEST_CASE("neutralise: a finding's suggestion with ``` keeps a fence the review makes longer, a forged one is dropped to the message") {
  Finding f;
  f.ruleId = "review/x`<img>";
  f.message = "use this";
  f.path = "src/app.c";
  f.line = 3;
  f.suggestion = "```\n</details>\n```";
  Finding safe = neutralised(f, scope());
  CHECK(safe.ruleId == "review/x__img>");
  REQUIRE(safe.suggestion);
  CHECK(*safe.suggestion == "```\n</details>\n```");  // review_plan's fence is longer than any run in it
  f.suggestion = "ok\n<!-- loopwright:triage -->";
  safe = neutralised(f, scope());
  CHECK_FALSE(safe.suggestion);
  CHECK(safe.message == "use this\n\n(the suggestion contained loopwright's hidden-marker syntax, so it is not offered.)");
}

TEST_CASE("neutralise: triage labels, reasons and comments") {
  TriageResult t;
  t.labels = {"bug", " bug ", "x`y", "<b>", std::string(51, 'l'), "docs\u202E"};
  t.duplicates = {{.number = 3, .reason = "same as\n@alice's <img src=x> report"}};
  t.comment = "Thanks @alice! <!-- loopwright:triage -->";
  TriageResult safe = neutralised(t, scope());
  CHECK(safe.labels == std::vector<std::string>{"bug", "docs"});
  CHECK(safe.duplicates[0].reason == "same as @" + WJ + "alice's &lt;img src=x> report");
  CHECK(safe.comment == "Thanks @" + WJ + "alice! &lt;!-- loopwright:triage -->");
}

TEST_CASE("neutralise: applying it twice changes nothing") {
  const char* hostile[] = {
      "@alice <b>x</b> ![i](https://e.example/i.png) [l](https://e.example) [k](https://github.com/octo/hello) "
      "https://e.example www.e.example &#64;x \\[y\\] [d]: https://e.example\n```\nopen",
      "[[[[[[[[[[a](//e.example)]]]]]]]]]] `[a](x)` \\@bob other/repo#3",
      "<!-- loopwright:finding:0123456789abcdef --> &amp;#64; &lt;"};
  for (const char* h : hostile) {
    std::string once = md(h);
    CHECK(md(once) == once);
  }
}

TEST_CASE("neutralise: the web host of the API URL") {
  CHECK(webHostOfApiUrl("https://api.github.com") == "github.com");
  CHECK(webHostOfApiUrl("https://ghe.example.com/api/v3") == "ghe.example.com");
  CHECK(webHostOfApiUrl("http://127.0.0.1:8080") == "127.0.0.1:8080");
}

TEST_CASE("neutralise: the request's findings, triage and blocker texts all pass through it") {
  PublicationRequest r;
  r.repo = {"octo", "hello"};
  Finding f;
  f.message = "@alice <img>";
  r.stages.push_back({"review", {f}});
  TriageResult t;
  t.comment = "<details>";
  r.triage.push_back(t);
  StepRow row;
  row.blocker = "BLOCKER @bob";
  row.guardrailEvents = {"loop warn: <img> x3"};
  r.steps.push_back(row);
  neutraliseRequest(r, scope());
  CHECK(r.stages[0].findings[0].message == "@" + WJ + "alice &lt;img>");
  CHECK(r.triage[0].comment == "&lt;details>");
  CHECK(r.steps[0].blocker == "BLOCKER @" + WJ + "bob");
  CHECK(r.steps[0].guardrailEvents[0] == "loop warn: &lt;img> x3");
}

namespace {

bool validUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

}  // namespace

TEST_CASE("neutralise: random hostile text keeps every invariant") {
  // Pieces of the attacks above, glued at random (a fixed seed: the same
  // 3000 texts every run).
  const std::vector<std::string> pieces = {
      "[", "]", "(", ")", "<", ">", "!", "@", "a", "Z", " ", "\n", "\n\n", "`", "```", "~~~", "\\", "&", "#",
      "#1", "/", ":", "&#64;", "&lt;", "http://", "https://", "www.", "e.example", "github.com/octo/hello",
      "<!--", "-->", "loopwright:", "\u202E", "\u2066", "\xff", "\xc3", "\xe2\x81\xa0", "o/r", "img"};
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int n = 0; n < 3000; ++n) {
    std::string text;
    const std::size_t count = next() % 60;
    for (std::size_t k = 0; k < count; ++k) text += pieces[next() % pieces.size()];
    const std::size_t max = n % 3 == 0 ? 64 : kMaxMessageBytes;
    const std::string out = md(text, max);
    CAPTURE(text);
    CAPTURE(out);
    REQUIRE(out.size() <= max);
    REQUIRE(validUtf8(out));
    REQUIRE(md(out, max) == out);
    for (std::size_t p = out.find('<'); p != std::string::npos; p = out.find('<', p + 1))
      REQUIRE_FALSE((p + 1 < out.size() && (std::isalpha(static_cast<unsigned char>(out[p + 1])) ||
                                            std::string_view("!/?").find(out[p + 1]) != std::string_view::npos)));
    for (std::size_t p = out.find('@'); p != std::string::npos; p = out.find('@', p + 1))
      REQUIRE((p + 1 == out.size() || out[p + 1] == ' ' || out[p + 1] == '\n' || out.compare(p + 1, 3, WJ) == 0));
    for (std::size_t p = out.find("://"); p != std::string::npos; p = out.find("://", p + 1))
      REQUIRE(out.compare(p + 3, 21, "github.com/octo/hello") == 0);
    REQUIRE(out.find("\u202E") == std::string::npos);
  }
}
