// The SA's partition rules: each decision written once, on top of routing's IBA 10.9.3 pkeys_match.
#include "smd/sa/partition_rules.h"

#include <algorithm>

namespace smd::sa {

namespace {

constexpr PKey kBaseMask = 0x7FFF;

}  // namespace

std::optional<PKey> path_pkey(const std::vector<PKey>& src, const std::vector<PKey>& dst, std::optional<PKey> wanted,
                              std::span<const PKey> allowed) {
  const auto allows = [&](PKey k) {
    return allowed.empty() || std::find(allowed.begin(), allowed.end(), k & kBaseMask) != allowed.end();
  };
  if (wanted && !allows(*wanted)) return std::nullopt;
  for (PKey s : src) {
    if ((s & kBaseMask) == 0) continue;
    if (wanted ? (s & kBaseMask) != (*wanted & kBaseMask) : !allows(s)) continue;
    for (PKey d : dst) {
      if (pkeys_match(s, d)) return wanted ? *wanted : s;
    }
  }
  return std::nullopt;
}

bool visible_to(const std::vector<PKey>& requester, const std::vector<PKey>& port, bool trusted) {
  return trusted || pkeys_share(requester, port);
}

bool holds_pkey(const std::vector<PKey>& pkeys, PKey pkey) {
  return std::any_of(pkeys.begin(), pkeys.end(), [&](PKey k) { return (k & kBaseMask) == (pkey & kBaseMask); });
}

bool may_use_pkey(const std::vector<PKey>& pkeys, PKey pkey) {
  return (pkey & kBaseMask) == 0 || holds_pkey(pkeys, pkey);
}

}  // namespace smd::sa
