// Test helpers: libibmad as the independent oracle for SMP field layouts, plus seeded random buffers.
// libibmad's field tables (IB_*_F) were written from the IBA spec by other people; agreeing with them
// field by field is evidence our offsets are right, not a restatement of our own code.
#pragma once

#include <infiniband/mad.h>

#include <array>
#include <cstdint>
#include <random>

#include "mad/codec/smp.h"

namespace smd::mad::testing {

/// 64-byte attribute buffer filled with seeded random bytes.
inline SmpData random_data(std::mt19937_64& rng) {
  SmpData d;
  for (auto& b : d) b = static_cast<std::uint8_t>(rng());
  return d;
}

/// Random value that fits in `width` bits.
inline std::uint64_t random_bits(std::mt19937_64& rng, unsigned width) {
  const std::uint64_t v = rng();
  return width >= 64 ? v : (v & ((std::uint64_t{1} << width) - 1));
}

/// libibmad reads/writes through void*; these wrappers keep the const-correct side of the tests tidy.
inline std::uint64_t oracle_get(const SmpData& d, MAD_FIELDS f, bool wide = false) {
  auto* p = const_cast<std::uint8_t*>(d.data());
  return wide ? mad_get_field64(p, 0, f) : mad_get_field(p, 0, f);
}
inline void oracle_set(SmpData& d, MAD_FIELDS f, std::uint64_t v, bool wide = false) {
  if (wide) {
    mad_set_field64(d.data(), 0, f, v);
  } else {
    mad_set_field(d.data(), 0, f, static_cast<std::uint32_t>(v));
  }
}

}  // namespace smd::mad::testing
