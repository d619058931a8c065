#include "smd/sa/mlid_pool.h"

#include <algorithm>

namespace smd::sa {

bool MlidPool::available(Lid mlid, Lid top) const {
  return mlid >= kMlidFirst && mlid <= std::min(top, kMlidLast) && !users_.contains(mlid);
}

std::optional<Lid> MlidPool::lowest_free(Lid top) const {
  top = std::min(top, kMlidLast);
  Lid next = kMlidFirst;
  for (const auto& [mlid, groups] : users_) {
    if (mlid > next) break;
    if (mlid == next) ++next;
  }
  if (next > top) return std::nullopt;
  return next;
}

void MlidPool::release(Lid mlid) {
  const auto it = users_.find(mlid);
  if (it == users_.end()) return;
  if (--it->second == 0) users_.erase(it);
}

}  // namespace smd::sa
