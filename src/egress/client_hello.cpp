#include "egress/client_hello.h"

#include <optional>
#include <vector>

namespace lw::egress {

namespace {

using Kind = ClientHelloRead::Kind;

constexpr unsigned char kHandshakeRecord = 22;
constexpr unsigned char kClientHello = 1;
constexpr unsigned kServerNameExtension = 0;
constexpr unsigned char kHostNameType = 0;

// A bounds-checked reader over one buffer: every read past the end sets
// `short_` and yields zeros, so the parser checks once per structure.
class Cursor {
 public:
  explicit Cursor(std::span<const unsigned char> b) : b_(b) {}
  unsigned number(int bytes) {
    unsigned v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | (pos_ < b_.size() ? b_[pos_++] : (short_ = true, 0));
    return v;
  }
  std::span<const unsigned char> take(std::size_t n) {
    if (b_.size() - pos_ < n) {
      short_ = true;
      pos_ = b_.size();
      return {};
    }
    auto s = b_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  // A vector with a `lengthBytes`-byte length in front.
  std::span<const unsigned char> vector(int lengthBytes) { return take(number(lengthBytes)); }
  bool isShort() const { return short_; }
  bool atEnd() const { return pos_ == b_.size(); }

 private:
  std::span<const unsigned char> b_;
  std::size_t pos_ = 0;
  bool short_ = false;
};

// The handshake bytes carried by the leading handshake records, which a
// client may split a ClientHello across; or the verdict when the records
// themselves say it (not TLS, or too short to tell yet).
std::optional<ClientHelloRead> joinRecords(std::span<const unsigned char> bytes, std::vector<unsigned char>& out) {
  Cursor c(bytes);
  while (!c.atEnd()) {
    const unsigned type = c.number(1);
    const unsigned major = c.number(1);
    c.number(1);  // minor: clients send 0x01 (TLS 1.0) in the first record for compatibility
    if (c.isShort()) return ClientHelloRead{};
    if (type != kHandshakeRecord || major != 3)
      return ClientHelloRead{out.empty() ? Kind::NotTls : Kind::Malformed, "not a TLS handshake record"};
    auto fragment = c.vector(2);
    if (c.isShort()) return ClientHelloRead{};
    out.insert(out.end(), fragment.begin(), fragment.end());
  }
  return std::nullopt;
}

ClientHelloRead serverName(std::span<const unsigned char> extension) {
  Cursor list(extension);
  Cursor names(list.vector(2));
  std::optional<std::string> found;
  while (!names.atEnd() && !names.isShort()) {
    const unsigned type = names.number(1);
    auto name = names.vector(2);
    if (type != kHostNameType) continue;
    if (found || name.empty()) return {Kind::Malformed, "a server_name extension with two or empty host names"};
    found = std::string(name.begin(), name.end());
  }
  if (names.isShort() || list.isShort() || !list.atEnd()) return {Kind::Malformed, "a server_name extension cut short"};
  if (!found) return {Kind::NoName, "a server_name extension without a host name"};
  return {Kind::Name, *found};
}

ClientHelloRead fromHandshake(std::span<const unsigned char> handshake) {
  if (handshake.empty()) return {};
  Cursor c(handshake);
  if (c.number(1) != kClientHello) return {Kind::Malformed, "the first handshake message is not a ClientHello"};
  const unsigned length = c.number(3);
  if (c.isShort() || handshake.size() - 4 < length) return {};
  Cursor hello(c.take(length));
  hello.number(2);  // legacy_version
  hello.take(32);   // random
  hello.vector(1);  // legacy_session_id
  hello.vector(2);  // cipher_suites
  hello.vector(1);  // legacy_compression_methods
  if (hello.atEnd() && !hello.isShort()) return {Kind::NoName, "a ClientHello without extensions"};
  Cursor extensions(hello.vector(2));
  if (hello.isShort()) return {Kind::Malformed, "a ClientHello cut short"};
  std::optional<ClientHelloRead> name;
  while (!extensions.atEnd()) {
    const unsigned type = extensions.number(2);
    auto body = extensions.vector(2);
    if (extensions.isShort()) return {Kind::Malformed, "a ClientHello extension cut short"};
    if (type != kServerNameExtension) continue;
    if (name) return {Kind::Malformed, "two server_name extensions"};
    name = serverName(body);
  }
  return name.value_or(ClientHelloRead{Kind::NoName, "a ClientHello without a server_name extension"});
}

}  // namespace

ClientHelloRead readClientHello(std::span<const unsigned char> bytes) {
  std::vector<unsigned char> handshake;
  const auto early = joinRecords(bytes, handshake);
  auto read = early ? *early : fromHandshake(handshake);
  if (read.kind == Kind::NeedMore && bytes.size() >= kMaxClientHelloBytes)
    return {Kind::Malformed, "a ClientHello over " + std::to_string(kMaxClientHelloBytes) + " bytes"};
  return read;
}

}  // namespace lw::egress
