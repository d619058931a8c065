// Table-driven field checks: one row per attribute field pairs a libibmad field id with our struct member.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

#include "tests/unit/mad/oracle.h"

namespace smd::mad::testing {

template <typename Attr>
struct FieldCase {
  MAD_FIELDS field;
  const char* name;
  unsigned width;  ///< bits
  std::function<std::uint64_t(const Attr&)> get;
  std::function<void(Attr&, std::uint64_t)> set;
};

// Row for member `m` of `Attr`, `w` bits wide, checked against libibmad field `f`.
#define SMD_FIELD(Attr, f, m, w)                                              \
  FieldCase<Attr> {                                                           \
    f, #m, w, [](const Attr& a) { return static_cast<std::uint64_t>(a.m); },  \
        [](Attr& a, std::uint64_t v) { a.m = static_cast<decltype(a.m)>(v); } \
  }

/// Random payloads: every field our decoder reports equals libibmad's reading, and encode() gives
/// back the exact payload (reserved bits included).
template <typename Attr>
void check_decode_against_oracle(const std::vector<FieldCase<Attr>>& cases, unsigned seed, int iterations) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < iterations; ++i) {
    const SmpData d = random_data(rng);
    const Attr a = Attr::decode(d);
    for (const auto& c : cases) {
      ASSERT_EQ(c.get(a), oracle_get(d, c.field, c.width > 32)) << c.name << " iteration " << i;
    }
    SmpData again{};
    a.encode(again);
    ASSERT_EQ(again, d) << "decode-then-encode must reproduce every byte, iteration " << i;
  }
}

/// Random field values: what we encode, libibmad reads back; and a field libibmad sets alone (all others
/// zero) decodes to that value with every other field zero.
template <typename Attr>
void check_encode_against_oracle(const std::vector<FieldCase<Attr>>& cases, unsigned seed, int iterations) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < iterations; ++i) {
    Attr a;
    for (const auto& c : cases) c.set(a, random_bits(rng, c.width));
    SmpData d{};
    a.encode(d);
    for (const auto& c : cases) {
      ASSERT_EQ(oracle_get(d, c.field, c.width > 32), c.get(a)) << c.name << " iteration " << i;
    }
  }
  for (const auto& c : cases) {
    SmpData d{};
    const std::uint64_t v = random_bits(rng, c.width) | 1;  // non-zero
    oracle_set(d, c.field, v, c.width > 32);
    const Attr a = Attr::decode(d);
    for (const auto& other : cases) {
      ASSERT_EQ(other.get(a), &other == &c ? v : 0) << "set " << c.name << " alone, read " << other.name;
    }
  }
}

}  // namespace smd::mad::testing
