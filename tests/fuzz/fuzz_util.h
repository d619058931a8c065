// Helpers shared by the fuzz targets: a failed property aborts with a message (libFuzzer then saves the
// input as crash-*), and fixed-size wire formats take the first bytes of the input, zero-padded.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace smd::fuzz {

/// Abort with `what` when `ok` is false: a property of the code under test does not hold.
inline void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz property failed: %s\n", what);
  std::abort();
}

/// The first N bytes of the input, zero-padded when it is shorter.
template <std::size_t N>
std::array<std::uint8_t, N> first_bytes(const std::uint8_t* data, std::size_t size) {
  std::array<std::uint8_t, N> out{};
  std::copy_n(data, std::min(size, N), out.begin());
  return out;
}

}  // namespace smd::fuzz
