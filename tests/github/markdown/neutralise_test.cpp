// The neutraliser on GitHub's own grammar: every case is judged by parsing
// the result with cmark-gfm (github/markdown/inert_check.h), as GitHub renders it.
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "github/markdown/inert_check.h"
#include "github/markdown/inert_markdown.h"
#include "github/markdown/neutralise.h"
#include "github/publish/markers.h"

using namespace lw;
using namespace lw::github;

namespace {

const std::string WJ = "\xE2\x81\xA0";  // U+2060 WORD JOINER

const LinkScope kScope{"github.com", "octo", "hello"};
const verify::SecretScanner kNoSecrets;

std::string md(const std::string& text, std::size_t max = kMaxMessageBytes) {
  return neutraliseMarkdown(text, kScope, max, kNoSecrets);
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// What GitHub would render of `out` that must not be there.
std::vector<std::string> forbidden(const std::string& out) { return inertViolations(out, kScope); }

}  // namespace

TEST_CASE("neutralise: the 1.0 link attack: a link's parentheses with trailing text are no link at all") {
  const std::string attack =
      "[x](foo bar @octocat [y](https://evil.example) ![i](https://evil.example/p.png) www.evil.example o/other#1)";
  // What 1.0 posted, as GitHub parses it: a live link, an image, a mention.
  CHECK(forbidden(attack).size() >= 4);
  const std::string out = md(attack);
  CAPTURE(out);
  CHECK(forbidden(out).empty());
  CHECK(has(out, "@" + WJ + "octocat"));
  CHECK(has(out, "(image: i)"));
  CHECK(has(out, "evil.example"));  // shown, not linked
}

TEST_CASE("neutralise: mentions, team mentions and addresses get a word joiner") {
  CHECK(md("ping @alice and @octo/admins") == "ping @" + WJ + "alice and @" + WJ + "octo/admins");
  CHECK(md("(@carol)") == "(@" + WJ + "carol)");
  CHECK(md("mail me at me@example.org") == "mail me at me@" + WJ + "example.org");  // no mailto: autolink
  CHECK(md("a lone @ sign") == "a lone @ sign");
  for (const std::string& t :
       std::vector<std::string>{"\\@dave", "&#64;erin", "@*frank*", "**@gina**", "[@hal](docs/a.md)", "&commat;ivy"}) {
    CAPTURE(t);
    CHECK(forbidden(md(t)).empty());
  }
}

TEST_CASE("neutralise: references to other repositories' issues leave no backlink there") {
  CHECK(forbidden(md("same as other/project#12")).empty());
  CHECK(forbidden(md("same as other/project\\#12")).empty());
  CHECK(has(md("see #12 and GH-3"), "#12"));  // this repository's own issues stay linked
}

TEST_CASE("neutralise: raw HTML and hidden comments are shown as code, never rendered") {
  for (const std::string& t :
       std::vector<std::string>{"<details><summary>x</summary>hidden</details>", "<img src=https://evil.example/p.png>",
                                "<a href=\"https://evil.example\">x</a>", "before <!-- secret instructions --> after",
                                "\\<b>", "&#60;img src=x&#62;", "<!-- loopwright:triage -->"}) {
    CAPTURE(t);
    const std::string out = md(t);
    CAPTURE(out);
    CHECK(forbidden(out).empty());
    CHECK_FALSE(markersIn(out).triage);
  }
  CHECK(md("if a < b and c <= d") == "if a \\< b and c \\<= d");
}

TEST_CASE("neutralise: images are removed, alt text kept as text") {
  CHECK(md("see ![tracking pixel](https://evil.example/t.gif) here") == "see (image: tracking pixel) here");
  CHECK(md("![](https://github.com/octo/hello/raw/main/a.png)") == "(image)");
  CHECK(forbidden(md("![x][ref]\n\n[ref]: https://evil.example/p.png")).empty());
}

TEST_CASE("neutralise: links stay only within the repository, resolved as a browser would") {
  SUBCASE("kept") {
    CHECK(md("[the file](https://github.com/octo/hello/blob/main/a.c#L3)") ==
          "[the file](https://github.com/octo/hello/blob/main/a.c#L3)");
    CHECK(md("[docs](docs/guide.md)") == "[docs](docs/guide.md)");
    CHECK(md("[issue](/octo/hello/issues/3)") == "[issue](/octo/hello/issues/3)");
    CHECK(md("[up](../../hello/blob/main/x)") == "[up](../../hello/blob/main/x)");
  }
  SUBCASE("off-site, another repository, tricks") {
    for (const std::string& t : std::vector<std::string>{
             "[click](https://evil.example/x)", "[other](https://github.com/octo/hello-evil/x)",
             "[up](../../../evil/repo)", "[pr](//evil.example/x)", "[js](javascript:alert(1))",
             "[at](https://github.com@evil.example/octo/hello)", "[bs](https:\\\\evil.example)",
             "[enc](/octo/hello/..%2f..%2fevil)", "[ref][r]\n\n[r]: https://evil.example",
             "[port](https://github.com:8443/octo/hello)", "<https://evil.example>", "https://evil.example/x now",
             "www.evil.example", "ftp://evil.example", "[a `]` b](//evil.example)"}) {
      CAPTURE(t);
      const std::string out = md(t);
      CAPTURE(out);
      CHECK(forbidden(out).empty());
    }
    CHECK(md("[click](https://evil.example/x)") == "click (https:" + WJ + "//evil.example/x)");
  }
  SUBCASE("a kept link's title is dropped") {
    CHECK(md("[x](https://github.com/octo/hello \"<!-- loopwright:triage -->\")") ==
          "[x](https://github.com/octo/hello)");
  }
}

TEST_CASE("neutralise: control, bidi and invisible characters are removed, invalid UTF-8 dropped") {
  CHECK(md("safe\u202Eevil\u2066x\u2069\u200F") == "safeevilx");
  CHECK(md("tag\U000E0041\U000E0042s zw\u200B\u200C\u200Dj \u2061\u2064 soft\u00ADhyphen mongol\u180Ex") ==
        "tags zwj  softhyphen mongolx");
  CHECK(md("vs\uFE0F\U000E0100 text") == "vs text");
  CHECK(md(std::string("bad \xff\xfe bytes \xc3\xa9")) == "bad  bytes \xc3\xa9");
}

TEST_CASE("neutralise: a token split by a hidden character is masked once the character is gone") {
  const std::string token = "ghp_" + std::string(36, 'A');
  const std::string split = token.substr(0, 10) + "\u202E" + token.substr(10);
  const std::string out = md("leaked " + split);
  CHECK_FALSE(has(out, token.substr(4)));
  const std::string lane = "sk-lane-key-0123456789";
  const verify::SecretScanner run({lane});
  const std::string hidden = "key " + lane.substr(0, 6) + "\u200B" + lane.substr(6);
  CHECK_FALSE(has(neutraliseMarkdown(hidden, kScope, kMaxMessageBytes, run), "0123456789"));
  CHECK_FALSE(has(neutraliseLine(hidden, kMaxReasonBytes, run), "0123456789"));
  // The renderer escapes '_': what a reader sees is scanned, not the escapes.
  CHECK_FALSE(has(neutraliseMarkdown("`" + lane.substr(0, 8) + "`" + lane.substr(8), kScope, kMaxMessageBytes, run),
                  "0123456789"));
}

TEST_CASE("neutralise: lengths are bounded with a note, never inside a character") {
  const std::string out = md(std::string(100000, 'x'));
  CHECK(out.size() <= kMaxMessageBytes);
  CHECK(out.substr(out.size() - 11) == "(truncated)");
  std::string accents;
  for (int i = 0; i < 5000; ++i) accents += "\xc3\xa9";
  CHECK(md(accents, 101).size() <= 101);
  CHECK(md(std::string(3000, '<') + std::string(3000, 'a')).size() <= kMaxMessageBytes);
  CHECK(md(std::string(5000, '*') + "b").size() <= kMaxMessageBytes);
}

TEST_CASE("neutralise: a code fence left open is closed, and a suggestion fence in a message is a plain one") {
  CHECK(md("look:\n```\ncode") == "look:\n\n``` text\ncode\n```");
  CHECK(md("```suggestion\nrm -rf /\n```") == "``` text\nrm -rf /\n```");
}

TEST_CASE("neutralise: suggestions keep their code, lose unsafe characters, refuse secrets") {
  CHECK(neutraliseSuggestion("if (a < b) { x = y; } // @Override\n", kNoSecrets) ==
        "if (a < b) { x = y; } // @Override\n");
  CHECK(neutraliseSuggestion("x = 1;\u202E // evil\n", kNoSecrets) == "x = 1; // evil\n");
  std::string why;
  CHECK_FALSE(neutraliseSuggestion("a\n<!--  LOOPWRIGHT:finding:0123456789abcdef -->\n", kNoSecrets, &why));
  CHECK(why == "the suggestion contained loopwright's hidden-marker syntax");
  CHECK_FALSE(neutraliseSuggestion("t = \"ghp_" + std::string(36, 'B') + "\"\n", kNoSecrets, &why));
  CHECK(why == "the suggestion showed a secret");
  CHECK_FALSE(neutraliseSuggestion(std::string(kMaxSuggestionBytes + 1, 'z'), kNoSecrets, &why));
  CHECK(has(why, "longer than 20000"));
}

TEST_CASE("neutralise: names keep the taskpack's grammar, identifiers cannot leave their code span") {
  CHECK(neutraliseName("review") == "review");
  CHECK(neutraliseName("<img src=x>@octocat") == "_img_src_x__octocat");
  CHECK(neutraliseName("www.evil.example") == "www_evil.example");
  CHECK(neutraliseName(std::string(300, 'n')).size() == kMaxNameBytes);
  CHECK(neutraliseIdentifier("x`y<z>\nw", 100) == "x_y_z> w");
  CHECK(isCommitId(std::string(40, 'a')));
  CHECK_FALSE(isCommitId(std::string(40, 'A')));
  CHECK_FALSE(isCommitId("abc"));
}

TEST_CASE("neutralise: the web host of the API URL") {
  CHECK(webHostOfApiUrl("https://api.github.com") == "github.com");
  CHECK(webHostOfApiUrl("https://ghe.example.com/api/v3") == "ghe.example.com");
  CHECK(webHostOfApiUrl("http://127.0.0.1:8080") == "127.0.0.1:8080");
}

TEST_CASE("neutralise: random hostile text is inert in GitHub's parse, bounded, valid UTF-8") {
  // Pieces of the attacks above, glued at random (a fixed seed: the same
  // 3000 texts every run).
  const std::vector<std::string> pieces = {"[",
                                           "]",
                                           "(",
                                           ")",
                                           "<",
                                           ">",
                                           "!",
                                           "@",
                                           "a",
                                           "Z",
                                           " ",
                                           "\n",
                                           "\n\n",
                                           "`",
                                           "```",
                                           "~~~",
                                           "\\",
                                           "&",
                                           "#",
                                           "#1",
                                           "/",
                                           ":",
                                           "&#64;",
                                           "&lt;",
                                           "http://",
                                           "https://",
                                           "www.",
                                           "e.example",
                                           "github.com/octo/hello",
                                           "<!--",
                                           "-->",
                                           "loopwright:",
                                           "\u202E",
                                           "\u2066",
                                           "\xff",
                                           "\xc3",
                                           "\xe2\x81\xa0",
                                           "o/r",
                                           "img",
                                           "|",
                                           "- ",
                                           "    ",
                                           "> ",
                                           "*",
                                           "_",
                                           "[r]: ",
                                           "<a href=",
                                           "mailto:",
                                           "\U000E0041"};
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
    REQUIRE(forbidden(out).empty());
    REQUIRE(forbidden(inertOneLine(out)).empty());
    REQUIRE_FALSE(has(out, "\u202E"));
    REQUIRE_FALSE(has(out, "\U000E0041"));
  }
}
