// CRC-32 against published check values and the 5-tuple hash against a value computed outside smd
// (Python's zlib.crc32 over the same 13 header bytes).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <string>

#include "routing/roce/ecmp_hash.h"

namespace smd::roce::roce_ecmp_hash_test {
namespace {

std::uint32_t crc_of(const std::string& s) {
  return crc32(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
}

TEST(RoceCrc32, KnownCheckValues) {
  // "123456789" is the catalogue check string of CRC-32/ISO-HDLC (Williams, "A painless guide to CRC").
  EXPECT_EQ(crc_of("123456789"), 0xCBF43926u);
  EXPECT_EQ(crc_of(""), 0x00000000u);
  EXPECT_EQ(crc_of("a"), 0xE8B7BE43u);
  EXPECT_EQ(crc_of("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
}

TEST(RoceHash, FiveTupleMatchesZlibOverWireBytes) {
  // python3: zlib.crc32(bytes([10,0,0,2, 10,0,1,2, 17, 0xC0,0x00, 0x12,0xB7])) == 0x4973d670
  const FiveTuple t{0x0A000002u, 0x0A000102u, kIpProtoUdp, 0xC000, kRoceUdpPort};
  EXPECT_EQ(hash_five_tuple(t, 0), 0x4973D670u);
}

TEST(RoceHash, DeterministicForASeedAndSeedIsAConstantXor) {
  // CRC is affine over GF(2): for messages of one length, changing the preset XORs the same constant
  // onto every result. So a seed changes every hash, by the same nonzero amount.
  std::mt19937 rng(7);
  std::uint32_t delta = 0;
  for (int i = 0; i < 1000; ++i) {
    const FiveTuple t{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), kIpProtoUdp,
                      static_cast<std::uint16_t>(0xC000 | (rng() & 0x3FFF)), kRoceUdpPort};
    EXPECT_EQ(hash_five_tuple(t, 12345), hash_five_tuple(t, 12345));
    const std::uint32_t d = hash_five_tuple(t, 12345) ^ hash_five_tuple(t, 999);
    if (i == 0) delta = d;
    EXPECT_EQ(d, delta);
  }
  EXPECT_NE(delta, 0u);
}

TEST(RoceHash, SourcePortSpreadsEvenlyOverMembers) {
  // One (src, dst) pair, every source port of the RoCE range: each of 4 members gets a quarter. CRC is
  // linear, so the low bits of the hash over 2^14 consecutive ports are exactly balanced.
  std::array<int, 4> count{};
  for (unsigned p = 0xC000; p <= 0xFFFF; ++p) {
    const FiveTuple t{0x0A000002u, 0x0A000903u, kIpProtoUdp, static_cast<std::uint16_t>(p), kRoceUdpPort};
    ++count[pick_member(hash_five_tuple(t, switch_hash_seed(1, 3)), 4)];
  }
  for (int c : count) EXPECT_EQ(c, 4096);
}

TEST(RoceHash, SeedsAloneCorrelateTiersOffsetsDecorrelate) {
  // CRC is affine: two presets differ by a constant XOR, so the 2-bit choices (mod 4) of two switches
  // differ by the same constant for every packet (polarization). Reading a different byte of the hash at
  // the second switch makes the pair of choices uniform: each of the 16 combinations for 1/16 of ports.
  std::array<int, 16> joint_seed_only{}, joint_offset{};
  for (unsigned p = 0xC000; p <= 0xFFFF; ++p) {
    const FiveTuple t{0x0A000002u, 0x0A000903u, kIpProtoUdp, static_cast<std::uint16_t>(p), kRoceUdpPort};
    const std::uint32_t a = hash_five_tuple(t, switch_hash_seed(5, 0));
    const std::uint32_t b = hash_five_tuple(t, switch_hash_seed(5, 1));
    ++joint_seed_only[pick_member(a, 4) * 4 + pick_member(b, 4)];
    ++joint_offset[pick_member(hash_offset(a, tier_hash_offset(0)), 4) * 4 +
                   pick_member(hash_offset(b, tier_hash_offset(1)), 4)];
  }
  int used = 0;
  for (int c : joint_seed_only) used += c > 0;
  EXPECT_EQ(used, 4) << "with seeds only, the first choice fixes the second";
  for (int c : joint_offset) EXPECT_EQ(c, 1024);
  EXPECT_EQ(hash_offset(0x12345678u, 8), 0x78123456u);
  EXPECT_EQ(hash_offset(0x12345678u, 0), 0x12345678u);
}

/// The hash as the comparison computes it: the XOR of one term per key byte and one for the seed.
std::uint32_t split_hash(const FiveTuple& t, std::uint32_t seed) {
  const auto key = five_tuple_key(t);
  std::uint32_t h = seed_term(seed);
  for (std::size_t i = 0; i < key.size(); ++i) h ^= key_byte_term(i, key[i]);
  return h;
}

TEST(RoceHash, SplitTermsGiveTheSameHash) {
  // The zlib value of FiveTupleMatchesZlibOverWireBytes, then random tuples and seeds (0 included).
  EXPECT_EQ(split_hash(FiveTuple{0x0A000002u, 0x0A000102u, kIpProtoUdp, 0xC000, kRoceUdpPort}, 0), 0x4973D670u);
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const FiveTuple t{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                      static_cast<std::uint8_t>(rng()), static_cast<std::uint16_t>(rng()),
                      static_cast<std::uint16_t>(rng())};
    const std::uint32_t seed = i % 7 == 0 ? 0 : static_cast<std::uint32_t>(rng());
    ASSERT_EQ(split_hash(t, seed), hash_five_tuple(t, seed)) << i;
  }
}

TEST(RoceHash, QpnKeyMatchesZlibAndAppendsToTheFiveTupleHash) {
  // python3: zlib.crc32(bytes([10,0,0,2, 10,0,1,2, 17, 0xC0,0x00, 0x12,0xB7, 0x01,0x23,0x45])) == 0x0c035b5d
  const FiveTuple t{0x0A000002u, 0x0A000102u, kIpProtoUdp, 0xC000, kRoceUdpPort};
  EXPECT_EQ(hash_five_tuple_qpn(t, 0x012345u, 0), 0x0C035B5Du);
  EXPECT_EQ(append_qpn(hash_five_tuple(t, 0), 0x012345u), 0x0C035B5Du);
  // The per-switch term moves out: append_qpn(h ^ x, q) == append_qpn(h, q) ^ append_qpn(x, 0) ^ append_qpn(0, 0).
  std::mt19937 rng(13);
  for (int i = 0; i < 1000; ++i) {
    const FiveTuple u{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), kIpProtoUdp,
                      static_cast<std::uint16_t>(rng()), kRoceUdpPort};
    const std::uint32_t qpn = rng() & 0xFFFFFFu;
    const std::uint32_t seed = static_cast<std::uint32_t>(rng());
    ASSERT_EQ(append_qpn(hash_five_tuple(u, seed), qpn), hash_five_tuple_qpn(u, qpn, seed)) << i;
    const std::uint32_t h = hash_five_tuple(u, 0), x = static_cast<std::uint32_t>(rng());
    ASSERT_EQ(append_qpn(h ^ x, qpn), append_qpn(h, qpn) ^ append_qpn(x, 0) ^ append_qpn(0, 0)) << i;
  }
  // Only the QPN's 24 bits count (BTH DestQP).
  EXPECT_EQ(hash_five_tuple_qpn(t, 0xFF012345u, 0), 0x0C035B5Du);
}

}  // namespace
}  // namespace smd::roce::roce_ecmp_hash_test
