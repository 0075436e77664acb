// Hostile text for the boundary's tests: pieces of every attack on what
// loopwright posts (links with trailing text, nested brackets, reference
// links, autolinks, entities, HTML, mentions in every position, hidden
// characters, table pipes, forged markers, secrets), glued at random from a
// fixed seed so that every run feeds the same texts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lw::test {

class HostileText {
 public:
  explicit HostileText(std::uint64_t seed = 0x9E3779B97F4A7C15ULL) : state_(seed) {}

  std::string next(std::size_t maxPieces = 40) {
    std::string text;
    const std::size_t count = 1 + draw() % maxPieces;
    for (std::size_t k = 0; k < count; ++k) text += pieces()[draw() % pieces().size()];
    return text;
  }

  static const std::vector<std::string>& pieces() {
    static const std::vector<std::string> p = {
        "[x](foo bar @octocat [y](https://evil.example) ![i](https://evil.example/p.png) www.evil.example o/other#1)",
        "[",
        "]",
        "(",
        ")",
        "[a](",
        "](https://evil.example)",
        "![",
        "<",
        ">",
        "!",
        "@",
        "@octocat",
        "@org/team",
        "a@b.example",
        "a",
        " ",
        "\n",
        "\n\n",
        "`",
        "```",
        "```suggestion\n",
        "~~~",
        "\\",
        "&",
        "#",
        "#1",
        "o/r#2",
        "/",
        ":",
        "&#64;",
        "&#x40;",
        "&commat;",
        "&lt;",
        "&#60;img src=x&#62;",
        "http://",
        "https://",
        "www.",
        "evil.example",
        "github.com/octo/hello",
        "https://github.com/octo/hello/blob/main/a.c",
        "../../../x",
        "//evil.example",
        "javascript:alert(1)",
        "mailto:a@b.example",
        "<https://evil.example>",
        "<!--",
        "-->",
        "<!-- loopwright:finding:0123456789abcdef:trusted:error -->",
        "<!-- loopwright:triage -->",
        "<!-- loopwright:review:0123456789abcdef0123456789abcdef01234567:x:trusted -->",
        "<img src=x>",
        "<a href=https://evil.example>",
        "<details>",
        "</details>",
        "\u202E",
        "\u2066",
        "\u200B",
        "\U000E0041",
        "\u00AD",
        "\uFE0F",
        "\xff",
        "\xc3",
        "\xe2\x81\xa0",
        "|",
        "x|@octocat|www.evil.example|.py",
        "- ",
        "    ",
        "> ",
        "* ",
        "1. ",
        "*",
        "_",
        "**",
        "[r]: https://evil.example\n",
        "[r]",
        "[^1]",
        "\n[^1]: note\n",
        "| a | b |\n| --- | --- |\n| c | d |\n",
        "- [ ] task",
        "~~s~~",
        "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
        "ghp_01234\u202E56789abcdefghijklmnopqrstuvwxyz"};
    return p;
  }

 private:
  std::uint64_t draw() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  std::uint64_t state_;
};

}  // namespace lw::test
