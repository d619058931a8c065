#include "routing/mcast/mcast_tables.h"

#include <algorithm>
#include <cstdio>

namespace smd {

const McastPortMask* McastTree::mask(Guid sw) const {
  auto it = std::lower_bound(switches.begin(), switches.end(), sw,
                             [](const std::pair<Guid, McastPortMask>& e, Guid g) { return e.first < g; });
  return it != switches.end() && it->first == sw ? &it->second : nullptr;
}

std::unordered_map<Guid, std::map<Lid, McastPortMask>> mft_by_switch(const McastTables& tables) {
  std::unordered_map<Guid, std::map<Lid, McastPortMask>> out;
  for (const auto& [mlid, tree] : tables.trees) {
    for (const auto& [guid, mask] : tree.switches) {
      if (!mask.empty()) out[guid][mlid] = mask;
    }
  }
  return out;
}

std::string format_mlid(Lid mlid) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(mlid));
  return buf;
}

}  // namespace smd
