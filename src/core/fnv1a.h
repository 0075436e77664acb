// FNV-1a (Fowler-Noll-Vo, draft-eastlake-fnv): the one hash behind the short
// names and fingerprints loopwright publishes. Its values are the same on
// every platform and in every version, so a value posted on GitHub or stored
// in a cluster is found again; it is not a defence against an attacker who
// wants a collision.
#pragma once

#include <cstdint>
#include <string_view>

namespace lw {

inline constexpr std::uint64_t kFnv1a64OffsetBasis = 14695981039346656037ull;
inline constexpr std::uint32_t kFnv1a32OffsetBasis = 2166136261u;

// FNV-1a 64 of `bytes`, continued from `hash` (the offset basis for a hash of
// `bytes` alone), so that fields are hashed one after the other.
constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = kFnv1a64OffsetBasis) {
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;  // the 64-bit FNV prime
  return hash;
}

// FNV-1a 32 of `bytes`, continued from `hash` as fnv1a64.
constexpr std::uint32_t fnv1a32(std::string_view bytes, std::uint32_t hash = kFnv1a32OffsetBasis) {
  for (unsigned char c : bytes) hash = (hash ^ c) * 16777619u;  // the 32-bit FNV prime
  return hash;
}

}  // namespace lw
