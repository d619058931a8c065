#include "smd/sa/partition_rules.h"

namespace smd::sa {

namespace {

constexpr PKey kBaseMask = 0x7FFF;

}  // namespace

std::optional<PKey> path_pkey(const std::vector<PKey>& src, const std::vector<PKey>& dst, std::optional<PKey> wanted) {
  for (PKey s : src) {
    if ((s & kBaseMask) == 0) continue;
    if (wanted && (s & kBaseMask) != (*wanted & kBaseMask)) continue;
    for (PKey d : dst) {
      if (pkeys_match(s, d)) return wanted ? *wanted : s;
    }
  }
  return std::nullopt;
}

}  // namespace smd::sa
