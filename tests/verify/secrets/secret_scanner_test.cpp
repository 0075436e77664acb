#include <doctest/doctest.h>

#include <chrono>

#include "core/base64.h"
#include "verify/secrets/secret_encodings.h"
#include "verify/secrets/secret_scanner.h"

using namespace lw::verify;

namespace {
std::string kinds(const ScanResult& r) {
  std::string out;
  for (const SecretHit& h : r.hits) out += (out.empty() ? "" : ",") + h.kind;
  return out;
}
}  // namespace

TEST_CASE("verify secrets: known token shapes are masked and reported without the value") {
  struct Row {
    std::string text;
    const char* kind;
  };
  const Row rows[] = {
      {"token ghp_" + std::string(36, 'a') + " end", "github-token"},
      {"gho_" + std::string(36, 'B'), "github-token"},
      {"ghs_" + std::string(40, '9'), "github-token"},
      {"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github-token"},
      {"key=AKIAIOSFODNN7EXAMPLE,", "aws-access-key"},
      {"-----BEGIN RSA PRIVATE KEY-----\nMIIE\nabc\n-----END RSA PRIVATE KEY-----", "private-key"},
      {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn", "private-key"},
      {"xoxb-123456789012-abcdefABCDEF", "slack-token"},
      {"https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX", "slack-webhook"},
      {"sk-proj-abcdefghijklmnopqrstuvwxyz012345", "openai-key"},
      {"sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "anthropic-key"},
      {"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"},
      {"MY_API_KEY=q8Zr2Lx9Vt4Wm7Kp", "generic-secret-assignment"},
      {"\"db_password\": \"Xk29!fQz#1LmW0\"", "generic-secret-assignment"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    SecretScanner s;
    ScanResult r = s.scanAndMask(row.text);
    CHECK(kinds(r) == row.kind);
    CHECK(r.masked.find("***") != std::string::npos);
    CHECK(r.masked.size() < row.text.size());
  }
}

TEST_CASE("verify secrets: ordinary text is left alone") {
  SecretScanner s;
  for (const char* text : {"the key is in the drawer", "PASSWORD=${{ secrets.PW }}", "API_KEY=$API_KEY",
                           "TOKEN=aaaaaaaaaaaaaaaa", "sk-short", "ghp_tooshort", "xAKIAIOSFODNN7EXAMPLE"}) {
    CAPTURE(text);
    ScanResult r = s.scanAndMask(text);
    CHECK(r.clean());
    CHECK(r.masked == text);
  }
}

TEST_CASE("verify secrets: exact run secrets, also base64- and URL-encoded") {
  const std::string secret = "hunter2:p@ss word/+";
  SecretScanner s({secret});
  SUBCASE("raw") {
    ScanResult r = s.scanAndMask("x " + secret + " y");
    CHECK(r.masked == "x *** y");
    CHECK(kinds(r) == "run-secret");
  }
  SUBCASE("base64 at every alignment, standard and url-safe") {
    for (std::string prefix : {"", "a", "ab", "user:"}) {
      for (bool url : {false, true}) {
        CAPTURE(prefix);
        CAPTURE(url);
        std::string enc =
            lw::base64Encode(prefix + secret + "!", url ? lw::Base64Alphabet::Url : lw::Base64Alphabet::Standard);
        ScanResult r = s.scanAndMask("Authorization: Basic " + enc);
        CHECK_FALSE(r.clean());
        CHECK(r.masked.find(enc) == std::string::npos);
      }
    }
  }
  SUBCASE("percent-encoded") {
    ScanResult r = s.scanAndMask("GET /?pw=hunter2%3Ap%40ss%20word%2F%2B HTTP/1.1");
    CHECK(kinds(r) == "run-secret:url");
    CHECK(r.masked == "GET /?pw=*** HTTP/1.1");
    CHECK_FALSE(s.scanAndMask("pw=hunter2%3ap%40ss+word%2f%2b").clean());
  }
  SUBCASE("hits carry line and column, never the value") {
    ScanResult r = s.scanAndMask("one\ntwo " + secret);
    REQUIRE(r.hits.size() == 1);
    CHECK(r.hits[0].line == 2);
    CHECK(r.hits[0].column == 5);
    lw::Finding f = secretLeakFinding(r.hits[0], "lint", "stdout");
    CHECK(f.ruleId == "SECRET_LEAK");
    CHECK(f.message.find(secret) == std::string::npos);
  }
  SUBCASE("too short to mask") {
    SecretScanner tiny({"abc"});
    CHECK(tiny.scanAndMask("abc abc").clean());
  }
}

TEST_CASE("verify secrets: ::add-mask:: commands, one per line of a multi-line secret") {
  SecretScanner s;
  ScanResult r = s.scanAndMask("-----BEGIN EC PRIVATE KEY-----\r\nAAAA\r\n-----END EC PRIVATE KEY-----\n");
  REQUIRE(r.hits.size() == 1);
  CHECK(r.valuesToMaskUnsafe ==
        std::vector<std::string>{"-----BEGIN EC PRIVATE KEY-----", "AAAA", "-----END EC PRIVATE KEY-----"});
  CHECK(addMaskCommand("a%b\nc") == "::add-mask::a%25b%0Ac");
}

TEST_CASE("verify secrets: findings are masked in place") {
  SecretScanner s({"s3cr3t-value"});
  std::vector<lw::Finding> fs(1);
  fs[0].message = "found s3cr3t-value here";
  fs[0].suggestion = "use ghp_" + std::string(36, 'x');
  auto hits = maskFindings(s, fs);
  CHECK(hits.size() == 2);
  CHECK(fs[0].message == "found *** here");
  CHECK(fs[0].suggestion == std::optional<std::string>("use ***"));
}

TEST_CASE("verify secrets: tokens next to and inside other candidates are still found") {
  const SecretScanner scanner({"hunter2-s3cret"});
  SUBCASE("a prefix that fails the word boundary does not hide the next one") {
    const std::string key = "sk-" + std::string(24, 'k');
    const ScanResult r = scanner.scanAndMask("xsk-" + key);
    CHECK(kinds(r) == "openai-key");
    CHECK(r.masked == "xsk-***");
  }
  SUBCASE("a private key whose BEGIN line closes the previous key's END") {
    const ScanResult r = scanner.scanAndMask(
        "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END -----BEGIN RSA PRIVATE KEY-----\nSECONDKEYBODY\n"
        "-----END RSA PRIVATE KEY-----\nafter");
    CHECK(r.masked == "***\nafter");
  }
  SUBCASE("a token that starts inside another's signature and reaches further") {
    const std::string first = "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.sig-";
    const std::string second = "eyJhbGciOiJIUzI2.eyJzdWIiOiI1Njc4.secondsig";
    const ScanResult r = scanner.scanAndMask(first + second + " tail");
    CHECK(r.masked == "*** tail");
  }
  SUBCASE("a credential assigned inside a low-entropy value") {
    const ScanResult r =
        scanner.scanAndMask("LOW_KEY=" + std::string(400, 'a') + "&API_TOKEN=Xy9kQ2mZ8pL4vB7nRt5w end");
    CHECK(kinds(r) == "generic-secret-assignment");
    CHECK(r.masked == "LOW_KEY=" + std::string(400, 'a') + "&API_TOKEN=*** end");
  }
  SUBCASE("overlapping occurrences of a run secret are masked as one") {
    const SecretScanner repeating({"abab"});
    const ScanResult r = repeating.scanAndMask("xabababy");
    CHECK(r.masked == "x***y");
    CHECK(r.hits.size() == 1);
  }
}

// A step controls what it prints. Before the detectors were made linear, a
// quarter megabyte of "sk-" took 29 s to scan (a megabyte, the default
// output bound, about eight minutes), after the step had ended.
TEST_CASE("verify secrets: a megabyte of repeated token prefixes scans in linear time") {
  const SecretScanner scanner({"hunter2-s3cret", "abab"});
  const char* units[] = {"sk-",
                         "sk-ant-",
                         "xoxb-",
                         "ghp_",
                         "github_pat_",
                         "eyJ-",
                         "eyJaaaaaaaaaaaaa.",
                         "A_KEY=",
                         "A_KEY=A",
                         "a_token: ",
                         "-----BEGIN ",
                         "-----BEGIN PRIVATE KEY-----",
                         "-----BEGIN PRIVATE KEY-----\n-----END ",
                         "https://hooks.slack.com/services/",
                         "AKIA",
                         "hunter2-s3cre",
                         "ab"};
  for (const char* unit : units) {
    CAPTURE(unit);
    std::string text;
    while (text.size() < (1u << 20)) text += unit;
    const auto start = std::chrono::steady_clock::now();
    const ScanResult r = scanner.scanAndMask(text);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Linear takes milliseconds in a release build and well under a second
    // with the sanitizers; quadratic took minutes.
    CHECK(seconds < 5.0);
    CHECK(r.masked.size() <= text.size() + 3 * r.hits.size());
  }
}
