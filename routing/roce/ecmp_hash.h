// ECMP member selection the way a merchant-silicon switch does it: hash the RoCEv2 packet's 5-tuple with
// a CRC and pick group member (hash mod group size). RoCEv2 (IBTA Annex A17) is UDP with destination
// port 4791; the UDP source port is the only per-connection entropy (NICs derive it from the QP number).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace smd::roce {

/// IANA-assigned UDP destination port of RoCEv2 (IBTA Annex A17.2).
inline constexpr std::uint16_t kRoceUdpPort = 4791;
/// IP protocol number of UDP (RFC 768).
inline constexpr std::uint8_t kIpProtoUdp = 17;

/// CRC-32 as in IEEE 802.3 / zlib: reflected polynomial 0xEDB88320, init `init` (normally 0xFFFFFFFF),
/// final XOR 0xFFFFFFFF. Table-driven, one byte per step. crc32("123456789") == 0xCBF43926.
std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t init = 0xFFFFFFFFu);

/// The fields a switch hashes for ECMP (IPv4 addresses as host-order 32-bit values).
struct FiveTuple {
  std::uint32_t src_ip = 0;
  std::uint32_t dst_ip = 0;
  std::uint8_t proto = kIpProtoUdp;
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = kRoceUdpPort;
};

/// Hash of a 5-tuple: CRC-32 over the 13 bytes in network order (src IP, dst IP, protocol, source port,
/// destination port), the CRC register preset from `seed` (seed 0 = the standard preset 0xFFFFFFFF).
/// Switches expose such a "hash seed" so that neighbouring tiers do not make correlated choices
/// (hash polarization). Deterministic: same tuple and seed, same value.
std::uint32_t hash_five_tuple(const FiveTuple& t, std::uint32_t seed);

/// The 13 key bytes hash_five_tuple hashes, in wire order: src IP (0-3), dst IP (4-7), protocol (8), source
/// port (9-10), destination port (11-12).
inline constexpr std::size_t kFiveTupleKeyBytes = 13;
std::array<std::uint8_t, kFiveTupleKeyBytes> five_tuple_key(const FiveTuple& t);

/// hash_five_tuple taken apart, for hashing millions of flows at every switch on their path. The CRC
/// register is linear over GF(2) in its preset and in every message byte, so for a 13-byte key
///     hash_five_tuple(t, seed) == seed_term(seed) ^ key_byte_term(0, key[0]) ^ ... ^ key_byte_term(12, key[12])
/// bit for bit. Precompute the terms of each address and port byte once, and a flow's hash at a switch
/// is a few XORs instead of 13 table steps.
/// Term of byte `value` at `position` (< kFiveTupleKeyBytes) of the key, register preset 0.
std::uint32_t key_byte_term(std::size_t position, std::uint8_t value);
/// Term of the register preset for `seed` (0 = the standard preset) over 13 bytes, final XOR included.
std::uint32_t seed_term(std::uint32_t seed);

/// Bytes of the RoCEv2 destination QP number (BTH DestQP, IBA 9.2: 24 bits) an enhanced-ECMP switch hashes
/// after the 5-tuple (a user-defined hash field over the Base Transport Header).
inline constexpr std::size_t kDestQpBytes = 3;

/// Enhanced ECMP (E-ECMP): the 5-tuple key followed by the 24-bit destination QPN, most significant byte
/// first, as one 16-byte CRC-32 key with the same preset as hash_five_tuple. Two QPs of one connection
/// then hash apart even when their UDP source ports are equal.
std::uint32_t hash_five_tuple_qpn(const FiveTuple& t, std::uint32_t dest_qpn, std::uint32_t seed);

/// The same hash from hash_five_tuple's result: the CRC carried on over the QPN bytes (the register before
/// the final XOR is hash ^ 0xFFFFFFFF). It is affine in `hash`, so for any x
///     append_qpn(h ^ x, q) == append_qpn(h, q) ^ append_qpn(x, 0) ^ append_qpn(0, 0),
/// which lets a per-switch term be moved out of the per-QP work just as key_byte_term does.
std::uint32_t append_qpn(std::uint32_t hash, std::uint32_t dest_qpn);

/// Index of the member a group of `group_size` (> 0) members picks for `hash`.
inline std::size_t pick_member(std::uint32_t hash, std::size_t group_size) { return hash % group_size; }

/// Per-switch hash seed derived from a fabric-wide seed and the switch's dense index (a multiplicative
/// mix with Knuth's golden-ratio constant spreads the indices).
/// Caveat that shapes the model: CRC is affine over GF(2), and a different preset only XORs a constant
/// onto the result, so the low bits two switches use are the same linear function of the packet plus a
/// constant. Seeds alone therefore do not stop polarization; hash_offset() does.
inline std::uint32_t switch_hash_seed(std::uint32_t fabric_seed, std::uint32_t switch_index) {
  return fabric_seed ^ (0x9E3779B9u * (switch_index + 1));
}

/// Rotate the hash right by `offset` bits before the member is picked: the per-switch choice of which
/// hash output bits feed the ECMP selection (switch ASICs expose this as a hash "offset" or bit
/// selection; operators give each tier a different one so that tiers make independent choices).
inline std::uint32_t hash_offset(std::uint32_t hash, unsigned offset) {
  offset &= 31u;
  return offset ? (hash >> offset) | (hash << (32 - offset)) : hash;
}

/// The bit offset a switch of `tier` (hops from the nearest leaf) uses: 8 bits further per tier, so the
/// up-going choices of a flow in a Clos of up to 4 tiers read disjoint byte windows of the hash.
inline unsigned tier_hash_offset(unsigned tier) { return (tier * 8u) % 32u; }

}  // namespace smd::roce
