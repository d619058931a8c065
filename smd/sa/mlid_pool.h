// The MLIDs in use by the SA's multicast groups (IBA 15.2.5.17: MLIDs 0xC000..0xFFFE) and how many groups
// sit on each: more than one only for consolidated IPv6 solicited-node groups (ipv6_snm.h). An MLID is free
// again when its last group ends. Pure bookkeeping; McastDb decides who may share.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "routing/base/ids.h"

namespace smd::sa {

inline constexpr Lid kMlidFirst = 0xC000;
inline constexpr Lid kMlidLast = 0xFFFE;  ///< 0xFFFF is the permissive LID

class MlidPool {
 public:
  /// True when `mlid` is a multicast LID no group holds, at most `top` (and kMlidLast).
  bool available(Lid mlid, Lid top) const;
  /// The lowest available MLID at most `top`, nullopt when all are taken (NO_RESOURCES for the caller).
  std::optional<Lid> lowest_free(Lid top) const;
  bool in_use(Lid mlid) const { return users_.contains(mlid); }
  /// One more group on `mlid`.
  void hold(Lid mlid) { ++users_[mlid]; }
  /// One group fewer on `mlid`; the MLID is free again at zero. An MLID not held is ignored.
  void release(Lid mlid);

 private:
  std::map<Lid, std::uint32_t> users_;  ///< MLID -> groups on it, ordered: the first gap is the lowest free
};

}  // namespace smd::sa
