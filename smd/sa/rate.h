// IBA rate codes (vol. 1, 15.2.5.16 table 224 and its extensions in 1.3/1.4): a 6-bit code per data rate.
// The codes are not ordered by speed (5 = 5 Gb/s comes after 3 = 10 Gb/s, 11 = 14 Gb/s after 10 = 120), so
// every comparison goes through the rate itself, never `<` on codes.
#pragma once

#include <cstdint>

namespace smd::sa {

/// Data rate of a code in units of 0.5 Gb/s (2.5 Gb/s = 5); 0 for an unknown or reserved code.
unsigned rate_half_gbps(std::uint8_t code);
/// The code of the fastest listed rate not above `half_gbps` (0.5 Gb/s units); 2 (2.5 Gb/s) at least.
std::uint8_t rate_code_at_most(unsigned half_gbps);
/// The slower of two codes by rate (an unknown code counts as slowest).
std::uint8_t slower_rate(std::uint8_t a, std::uint8_t b);
/// The next slower listed code than `code`, or 0 when there is none.
std::uint8_t next_slower_rate(std::uint8_t code);

/// The highest rate code of IBA 1.2.1's extended table (12x EDR, 300 Gb/s): clients whose drivers predate
/// IBA 1.3's 2x widths and HDR (codes 19 and up) do not understand the codes above it.
inline constexpr std::uint8_t kLastOriginalRateCode = 18;
/// `code` as such a client can read it (OpenSM's use_original_extended_sa_rates_only): codes up to
/// kLastOriginalRateCode unchanged, a newer one mapped down to the fastest original rate not above it
/// (50 Gb/s, code 20 -> 40 Gb/s, code 7; 600 Gb/s, code 22 -> 300 Gb/s, code 18); 0 stays 0.
std::uint8_t original_rate_code(std::uint8_t code);

/// A port's data rate code from PortInfo LinkWidthActive (1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x),
/// LinkSpeedActive (1 SDR, 2 DDR, 4 QDR), LinkSpeedExtActive (1 FDR, 2 EDR, 4 HDR, 8 NDR; 0 = not in
/// use, the base speed counts) and LinkSpeedExt2Active (1 XDR, 200 Gb/s a lane; it wins when set).
/// XDR 8x and 12x (1600, 2400 Gb/s) have no code in IBA 1.7 nor in verbs: they answer 1200 Gb/s (24).
std::uint8_t port_rate_code(std::uint8_t width_active, std::uint8_t speed_active, std::uint8_t speed_ext_active,
                            std::uint8_t speed_ext2_active = 0);

}  // namespace smd::sa
