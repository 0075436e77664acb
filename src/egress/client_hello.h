// The server name a TLS client asks for, read from the first bytes it
// sends through a CONNECT tunnel (its ClientHello, RFC 8446 §4.1.2, and
// the server_name extension, RFC 6066 §3). The proxy compares it with the
// host the client named in CONNECT, so that a tunnel opened to an allowed
// name cannot carry a handshake for another one (the same server may hold
// both). Pure: bytes in, a verdict out.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace lw::egress {

struct ClientHelloRead {
  enum class Kind {
    NeedMore,   // a valid prefix: read more bytes (up to kMaxClientHelloBytes)
    NotTls,     // the first record is not a TLS handshake
    Malformed,  // a handshake, but not a ClientHello that parses
    NoName,     // a ClientHello without a host_name
    Name,       // `name` holds the host_name
  };
  Kind kind = Kind::NeedMore;
  std::string name;  // Name: as sent; otherwise why
};

// A ClientHello larger than this is refused: real ones, with post-quantum
// key shares, are under 2 KiB.
inline constexpr std::size_t kMaxClientHelloBytes = 16 * 1024;

ClientHelloRead readClientHello(std::span<const unsigned char> bytes);

}  // namespace lw::egress
