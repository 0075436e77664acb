#include <doctest/doctest.h>

#include "agents/reproduce/repro_extract.h"

using namespace lw::agents::reproduce;

namespace {

const ExtractOptions kOptions{{"Steps to reproduce", "Reproduction"}, {"Actual behaviour", "Error"}};

Reproduction find(const std::string& body) { return findReproduction(body, kOptions); }

}  // namespace

TEST_CASE("reproduce extract: the block under the form's reproduction field wins over an earlier one") {
  const Reproduction r = find(
      "### Version\n\n```sh\necho not this\n```\n\n### Steps to reproduce\n\n```python\nprint('this')\n```\n\n"
      "### Other\n\n```bash\necho nor this\n```\n");
  REQUIRE(r.language);
  CHECK(*r.language == Language::Python);
  CHECK(r.script == "print('this')\n");
  CHECK(r.field == "Steps to reproduce");
  CHECK(r.refused.empty());
}

TEST_CASE("reproduce extract: without the field, the body's first runnable block, in any fence language spelling") {
  SUBCASE("sh") { CHECK(*find("text\n\n```text\nnot code\n```\n\n~~~ sh\nls\n~~~\n").language == Language::Shell); }
  SUBCASE("shell") { CHECK(*find("```shell\nls\n```").language == Language::Shell); }
  SUBCASE("bash with attributes") { CHECK(*find("```Bash {.line-numbers}\nls\n```").language == Language::Bash); }
  SUBCASE("py") { CHECK(*find("```py\nprint(1)\n```").language == Language::Python); }
  SUBCASE("node") { CHECK(*find("```node\nconsole.log(1)\n```").language == Language::JavaScript); }
  SUBCASE("javascript") { CHECK(*find("```javascript\nconsole.log(1)\n```").language == Language::JavaScript); }
  SUBCASE("js") { CHECK(*find("```js\nconsole.log(1)\n```").language == Language::JavaScript); }
  CHECK(find("```sh\nls\n```").field.empty());
}

TEST_CASE("reproduce extract: what is not a runnable fenced block is not run") {
  SUBCASE("indented code") { CHECK_FALSE(find("para\n\n    rm -rf /\n").language); }
  SUBCASE("inline code") { CHECK_FALSE(find("run `rm -rf /` to see it").language); }
  SUBCASE("other language") { CHECK_FALSE(find("```ruby\nputs 1\n```").language); }
  SUBCASE("no info string") { CHECK_FALSE(find("```\nls\n```").language); }
  SUBCASE("empty block") { CHECK_FALSE(find("```sh\n\n```").language); }
  SUBCASE("html comment") { CHECK_FALSE(find("<!--\n```sh\nls\n```\n-->").language); }
  SUBCASE("nothing") { CHECK_FALSE(find("").language); }
}

TEST_CASE("reproduce extract: hostile Markdown is read as GitHub renders it") {
  SUBCASE("an unclosed fence runs to the end of the body, as GitHub shows it") {
    const Reproduction r = find("### Steps to reproduce\n\n```sh\necho one\n### Not a heading\necho two\n");
    REQUIRE(r.language);
    CHECK(r.script == "echo one\n### Not a heading\necho two\n");
  }
  SUBCASE("a longer fence holds a shorter one: the outer block is the script, whole") {
    const Reproduction r = find("````sh\ncat <<'EOF'\n```sh\nrm -rf /\n```\nEOF\n````\n");
    REQUIRE(r.language);
    CHECK(r.script == "cat <<'EOF'\n```sh\nrm -rf /\n```\nEOF\n");
  }
  SUBCASE("a fence inside a list or a quote still counts") {
    CHECK(find("- step:\n\n  ```sh\n  ls\n  ```\n").script == "ls\n");
    CHECK(find("> ```python\n> print(1)\n> ```\n").script == "print(1)\n");
  }
  SUBCASE("a NUL byte becomes U+FFFD, as GitHub renders it, and hides nothing after it") {
    const std::string body = std::string("```sh\necho a") + '\0' + "b; echo c\n```\n";
    const Reproduction r = find(body);
    REQUIRE(r.language);
    CHECK(r.script ==
          "echo a\xEF\xBF\xBD"
          "b; echo c\n");
  }
  SUBCASE("a block larger than the bound is refused, not cut") {
    const Reproduction r = find("```sh\n" + std::string(kMaxScriptBytes + 10, 'x') + "\n```\n");
    CHECK_FALSE(r.language);
    CHECK(r.refused.find("at most 65536 are run") != std::string::npos);
  }
  SUBCASE("a body larger than GitHub allows is refused") {
    const Reproduction r = find(std::string(kMaxBodyBytes + 1, 'a'));
    CHECK_FALSE(r.language);
    CHECK(r.refused.find("larger than GitHub allows") != std::string::npos);
  }
  SUBCASE("ten thousand unclosed fences are one block, too large to run") {
    std::string body;
    for (int i = 0; i < 10000; ++i) body += "```sh\n> - ```py\n";
    const Reproduction r = find(body);
    CHECK_FALSE(r.language);
    CHECK(r.refused.find("at most 65536 are run") != std::string::npos);
  }
  SUBCASE("fences a thousand containers deep do not crash the reader") {
    std::string quotes;
    for (int i = 0; i < 1000; ++i) quotes += "> ";
    CHECK(find(quotes + "```sh\n" + quotes + "ls\n" + quotes + "```\n").script == "ls\n");
  }
}

TEST_CASE("reproduce extract: a branch or commit the issue names is where it runs") {
  SUBCASE("branch in a code span under the field") {
    const Reproduction r = find("### Steps to reproduce\n\nOn branch `repro/crash-42`:\n\n```sh\nmake\n```\n");
    REQUIRE(r.ref);
    CHECK(r.ref->kind == SourceRef::Kind::Branch);
    CHECK(r.ref->name == "repro/crash-42");
    CHECK(r.language);
  }
  SUBCASE("commit in running text") {
    const Reproduction r = find("It broke at commit 1A2b3c4d.\n");
    REQUIRE(r.ref);
    CHECK(r.ref->kind == SourceRef::Kind::Commit);
    CHECK(r.ref->name == "1a2b3c4d");
    CHECK_FALSE(r.language);
  }
  SUBCASE("a branch name that could be an option or a revision expression is refused") {
    CHECK_FALSE(find("branch `--upload-pack=x`").ref);
    CHECK_FALSE(find("branch `main@{1}`").ref);
    CHECK_FALSE(find("branch `a..b`").ref);
    CHECK(find("branch `-x`").refused == "the branch it names is not a plain branch name");
  }
  SUBCASE("hex that is not a commit id") {
    CHECK_FALSE(find("commit `abc`").ref);
    CHECK_FALSE(find("commit `not-hex1`").ref);
  }
}

TEST_CASE("reproduce extract: the reported error is the first line under the form's error field") {
  CHECK(reportedError("### Actual behaviour\n\n```\n\nTraceback (most recent call last):\n  x\n```\n", kOptions) ==
        "Traceback (most recent call last):");
  CHECK(reportedError("### Error\n\nValueError: bad width\nmore\n\n### Next\n\nx\n", kOptions) ==
        "ValueError: bad width");
  CHECK_FALSE(reportedError("### Actual behaviour\n\n_No response_\n", kOptions));
  CHECK_FALSE(reportedError("### Actual behaviour\n\nab\n", kOptions));
  CHECK_FALSE(reportedError("no form here: ValueError", kOptions));
  CHECK(reportedError("### Error\n\n" + std::string(500, 'e'), kOptions)->size() == 200);
}
