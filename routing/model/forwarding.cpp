#include "routing/model/forwarding.h"

namespace smd {

std::array<std::uint8_t, kLftBlockSize> Lft::block(unsigned b) const {
  std::array<std::uint8_t, kLftBlockSize> out;
  out.fill(kNoPort);
  const std::size_t start = static_cast<std::size_t>(b) * kLftBlockSize;
  for (std::size_t i = 0; i < kLftBlockSize && start + i < ports_.size(); ++i) out[i] = ports_[start + i];
  return out;
}

}  // namespace smd
