#include "egress/client_hello.h"

#include <openssl/ssl.h>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using lw::egress::ClientHelloRead;
using lw::egress::readClientHello;
using Kind = ClientHelloRead::Kind;

namespace {

// The first flight of a real TLS client (OpenSSL), asking for `serverName`
// (none when empty): what the proxy reads through a CONNECT tunnel.
std::vector<unsigned char> realClientHello(const std::string& serverName) {
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
  BIO* in = BIO_new(BIO_s_mem());
  BIO* out = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl.get(), in, out);
  if (!serverName.empty()) SSL_set_tlsext_host_name(ssl.get(), serverName.c_str());
  SSL_connect(ssl.get());  // wants to read the ServerHello: the ClientHello is in `out`
  char* data = nullptr;
  const long size = BIO_get_mem_data(out, &data);
  return {data, data + size};
}

std::span<const unsigned char> prefix(const std::vector<unsigned char>& b, std::size_t n) { return {b.data(), n}; }

// The same handshake carried in records of at most `fragment` bytes.
std::vector<unsigned char> refragmented(const std::vector<unsigned char>& hello, std::size_t fragment) {
  std::vector<unsigned char> out;
  const std::vector<unsigned char> handshake(hello.begin() + 5, hello.end());
  for (std::size_t at = 0; at < handshake.size(); at += fragment) {
    const std::size_t n = std::min(fragment, handshake.size() - at);
    out.insert(out.end(), {22, 3, 1, static_cast<unsigned char>(n >> 8), static_cast<unsigned char>(n & 0xff)});
    out.insert(out.end(), handshake.begin() + static_cast<long>(at), handshake.begin() + static_cast<long>(at + n));
  }
  return out;
}

}  // namespace

TEST_CASE("egress ClientHello: the server name of a real client's hello is read") {
  auto hello = realClientHello("registry.npmjs.org");
  auto read = readClientHello(hello);
  CHECK(read.kind == Kind::Name);
  CHECK(read.name == "registry.npmjs.org");
}

TEST_CASE("egress ClientHello: every proper prefix of a hello asks for more bytes, never a verdict") {
  auto hello = realClientHello("a.example.org");
  for (std::size_t n = 0; n < hello.size(); ++n) {
    auto read = readClientHello(prefix(hello, n));
    REQUIRE_MESSAGE(read.kind == Kind::NeedMore, n, ": ", read.name);
  }
}

TEST_CASE("egress ClientHello: a hello split over many records is joined") {
  auto hello = realClientHello("split.example.org");
  for (std::size_t fragment : {1u, 7u, 100u}) {
    auto split = refragmented(hello, fragment);
    auto read = readClientHello(split);
    CHECK(read.kind == Kind::Name);
    CHECK(read.name == "split.example.org");
  }
}

TEST_CASE("egress ClientHello: a hello without a name, plain text and garbage are told apart") {
  CHECK(readClientHello(realClientHello("")).kind == Kind::NoName);
  const std::string get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  CHECK(readClientHello({reinterpret_cast<const unsigned char*>(get.data()), get.size()}).kind == Kind::NotTls);
  auto hello = realClientHello("x.example.org");
  hello[5] = 2;  // a ServerHello where the ClientHello goes
  CHECK(readClientHello(hello).kind == Kind::Malformed);
}

TEST_CASE("egress ClientHello: lengths that point past their structure are malformed, never read beyond") {
  auto hello = realClientHello("x.example.org");
  // Every byte of the hello set to 0xff in turn: any verdict is fine as long
  // as none reads out of bounds (ASan) and a name found is the real one.
  for (std::size_t i = 5; i < hello.size(); ++i) {
    auto bent = hello;
    bent[i] = 0xff;
    auto read = readClientHello(bent);
    if (read.kind == Kind::Name) CHECK_MESSAGE(read.name.size() <= hello.size(), i);
  }
}

TEST_CASE("egress ClientHello: a hello that never ends is refused at the size cap") {
  std::vector<unsigned char> huge = {22, 3, 1, 0xff, 0xff, 1, 0xff, 0xff, 0xff};
  huge.resize(lw::egress::kMaxClientHelloBytes, 0);
  CHECK(readClientHello(huge).kind == Kind::Malformed);
}
