// Rate codes and the rates they stand for (IBA vol. 1, table 224; 1.3 added FDR/EDR, 1.4 HDR, 1.5 NDR,
// 1.7 XDR lanes but no code above 1200 Gb/s).
#include "smd/sa/rate.h"

#include <array>
#include <utility>

namespace smd::sa {

namespace {
// (code, rate in 0.5 Gb/s units)
constexpr std::array<std::pair<std::uint8_t, unsigned>, 23> kRates = {{
    {2, 5},    {3, 20},  {4, 60},   {5, 10},   {6, 40},    {7, 80},    {8, 120},   {9, 160},
    {10, 240}, {11, 28}, {12, 112}, {13, 224}, {14, 336},  {15, 50},   {16, 200},  {17, 400},
    {18, 600}, {19, 56}, {20, 100}, {21, 800}, {22, 1200}, {23, 1600}, {24, 2400},
}};
}  // namespace

unsigned rate_half_gbps(std::uint8_t code) {
  for (const auto& [c, r] : kRates) {
    if (c == code) return r;
  }
  return 0;
}

std::uint8_t rate_code_at_most(unsigned half_gbps) {
  std::uint8_t best = 2;
  unsigned best_rate = 0;
  for (const auto& [c, r] : kRates) {
    if (r <= half_gbps && r > best_rate) {
      best = c;
      best_rate = r;
    }
  }
  return best;
}

std::uint8_t slower_rate(std::uint8_t a, std::uint8_t b) { return rate_half_gbps(b) < rate_half_gbps(a) ? b : a; }

std::uint8_t next_slower_rate(std::uint8_t code) {
  const unsigned rate = rate_half_gbps(code);
  std::uint8_t best = 0;
  unsigned best_rate = 0;
  for (const auto& [c, r] : kRates) {
    if (r < rate && r > best_rate) {
      best = c;
      best_rate = r;
    }
  }
  return best;
}

std::uint8_t original_rate_code(std::uint8_t code) {
  if (code <= kLastOriginalRateCode) return code;
  const unsigned rate = rate_half_gbps(code);
  std::uint8_t best = 2;
  unsigned best_rate = 0;
  for (const auto& [c, r] : kRates) {
    if (c <= kLastOriginalRateCode && r <= rate && r > best_rate) {
      best = c;
      best_rate = r;
    }
  }
  return best;
}

std::uint8_t port_rate_code(std::uint8_t width_active, std::uint8_t speed_active, std::uint8_t speed_ext_active,
                            std::uint8_t speed_ext2_active) {
  unsigned lanes = 0;
  switch (width_active) {
    case 1: lanes = 1; break;
    case 2: lanes = 4; break;
    case 4: lanes = 8; break;
    case 8: lanes = 12; break;
    case 16: lanes = 2; break;
    default: lanes = 1; break;
  }
  unsigned lane = 5;  // SDR, 2.5 Gb/s
  if (speed_ext2_active == 1) return rate_code_at_most(lanes * 400);  // XDR, 200 Gb/s
  switch (speed_ext_active) {
    case 1: lane = 28; break;   // FDR, 14 Gb/s
    case 2: lane = 50; break;   // EDR, 25 Gb/s
    case 4: lane = 100; break;  // HDR, 50 Gb/s
    case 8: lane = 200; break;  // NDR, 100 Gb/s
    default:
      if (speed_active & 4)
        lane = 20;  // QDR, 10 Gb/s
      else if (speed_active & 2)
        lane = 10;  // DDR, 5 Gb/s
      break;
  }
  return rate_code_at_most(lanes * lane);
}

}  // namespace smd::sa
