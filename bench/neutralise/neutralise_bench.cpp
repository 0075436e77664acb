// The neutraliser on a 1 MB review body (lists of findings with links in and
// off the repository, mentions, code, HTML, tables) against its floor,
// cmark-gfm's parse of the same text alone, measured in the same run.
// The neutraliser cleans hidden characters, masks secrets, parses, rebuilds,
// renders, and parses twice more (its own check, and what a reader sees for
// the second secret scan): a ratio near 4-5x is the work it does.
//
// usage: bench_neutralise [--runs N] [--bytes N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "github/markdown/markdown_tree.h"
#include "github/markdown/neutralise.h"

using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One finding of a model's review, as it might write it; varied by `i`.
std::string finding(int i) {
  std::string n = std::to_string(i);
  return "- **error** `security/sql-" + n + "` in `src/app" + n + ".c:" + n +
         "`: the query is built from `req.query` @reviewer-" + n + " see [the guide](guide/sql.md#L" + n +
         ") and [this advisory](https://evil.example/a" + n +
         ") ![badge](https://evil.example/b.png) "
         "www.example" +
         n + ".org and o/r#" + n + " <b>bold</b> <!-- hidden " + n +
         " -->\n\n"
         "  ```c\n  sprintf(q, \"SELECT * FROM t WHERE id=%s\", id" +
         n +
         ");\n  ```\n\n"
         "  | column | risk |\n  | --- | --- |\n  | id" +
         n + " | high |\n\n";
}

std::string body(std::size_t bytes) {
  std::string out = "### loopwright review\n\n";
  for (int i = 0; out.size() < bytes; ++i) out += finding(i);
  return out;
}

template <typename F>
double timeMs(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 9;
  std::size_t bytes = 1 << 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--runs") runs = std::atoi(argv[i + 1]);
    if (a == "--bytes") bytes = static_cast<std::size_t>(std::atoll(argv[i + 1]));
  }
  const std::string text = body(bytes);
  const lw::github::LinkScope scope{"github.com", "octo", "hello"};
  const lw::verify::SecretScanner secrets({"sk-lane-key-0123456789"});
  std::vector<double> parse, parseRender, scan, neutralise;
  std::size_t outBytes = 0;
  for (int r = 0; r < runs; ++r) {
    // Interleaved, so that both see the same machine.
    parse.push_back(timeMs([&] { lw::github::md::Tree::parse(text); }));
    parseRender.push_back(timeMs([&] { outBytes = lw::github::md::Tree::parse(text).render().size(); }));
    scan.push_back(timeMs([&] { outBytes = secrets.scanAndMask(text).masked.size(); }));
    neutralise.push_back(
        timeMs([&] { outBytes = lw::github::neutraliseMarkdown(text, scope, 2 * bytes, secrets).size(); }));
  }
  const double p = median(parse), n = median(neutralise);
  std::printf("input %zu bytes, output %zu bytes, %d runs (medians)\n", text.size(), outBytes, runs);
  std::printf("cmark-gfm parse alone (floor)   %8.2f ms\n", p);
  std::printf("parse + render                  %8.2f ms   %.2fx the parse\n", median(parseRender),
              median(parseRender) / p);
  std::printf("secret scan of the text         %8.2f ms   %.2fx the parse\n", median(scan), median(scan) / p);
  std::printf("neutraliseMarkdown              %8.2f ms   %.2fx the parse\n", n, n / p);
  return 0;
}
