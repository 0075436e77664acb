#include <doctest/doctest.h>

#include "sandbox/docker/log_demux.h"
#include "sandbox/docker_fake_engine.h"

using lw::sandbox::docker::LogDemuxer;
using lw::test::logFrame;

TEST_CASE("docker logs: frames are split into stdout and stderr whatever the piece sizes") {
  const std::string stream = logFrame(1, "hello ") + logFrame(2, "oops\n") + logFrame(1, "world\n") + logFrame(0, "") +
                             logFrame(1, std::string(300, 'x'));
  for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{13}, stream.size()}) {
    CAPTURE(piece);
    LogDemuxer d(1 << 20);
    for (std::size_t i = 0; i < stream.size(); i += piece) d.feed(std::string_view(stream).substr(i, piece));
    CHECK(d.complete());
    CHECK(d.out().data == "hello world\n" + std::string(300, 'x'));
    CHECK(d.err().data == "oops\n");
    CHECK(d.out().totalBytes == 312);
    CHECK(!d.out().truncated());
  }
}

TEST_CASE("docker logs: capture is bounded per stream and the rest is counted") {
  LogDemuxer d(4);
  d.feed(logFrame(1, "abcdef") + logFrame(2, "12") + logFrame(1, "gh") + logFrame(2, "345"));
  CHECK(d.out().data == "abcd");
  CHECK(d.out().totalBytes == 8);
  CHECK(d.out().truncated());
  CHECK(d.err().data == "1234");
  CHECK(d.err().totalBytes == 5);
}

TEST_CASE("docker logs: a broken stream is reported, not guessed at") {
  SUBCASE("unknown stream type") {
    LogDemuxer d(100);
    d.feed(logFrame(1, "ok") + logFrame(7, "??") + logFrame(1, "lost"));
    CHECK(d.malformed());
    CHECK(!d.complete());
    CHECK(d.out().data == "ok");
  }
  SUBCASE("ends inside a frame") {
    LogDemuxer d(100);
    const std::string f = logFrame(2, "truncated");
    d.feed(f.substr(0, f.size() - 2));
    CHECK(!d.malformed());
    CHECK(!d.complete());
    CHECK(d.err().data == "truncat");
  }
  SUBCASE("ends inside a header") {
    LogDemuxer d(100);
    d.feed(logFrame(1, "a") + std::string("\x01\0\0", 3));
    CHECK(!d.complete());
  }
}

TEST_CASE("docker logs: the live copy sees every byte, also past the bound") {
  std::string seen;
  LogDemuxer d(2, [&](int stream, const char* data, std::size_t n) {
    seen += std::to_string(stream) + ":" + std::string(data, n) + ";";
  });
  d.feed(logFrame(1, "abc") + logFrame(2, "de"));
  CHECK(seen == "1:abc;2:de;");
  CHECK(d.out().data == "ab");
}
