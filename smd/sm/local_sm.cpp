#include "smd/sm/local_sm.h"

namespace smd {

mad::SmInfo LocalSm::sminfo(std::uint64_t sm_key, unsigned priority) const {
  mad::SmInfo info;
  info.guid = guid;
  info.sm_key = sm_key;
  info.act_count = act_count;
  info.priority = static_cast<std::uint8_t>(priority);
  info.state = state;
  return info;
}

sa::SmEntry LocalSm::sa_entry(std::uint64_t sm_key, unsigned priority) const {
  return sa_entry_of(lid, guid, sminfo(sm_key, priority));
}

sa::SmEntry sa_entry_of(Lid lid, Guid guid, const mad::SmInfo& info) {
  return {lid, guid, info.sm_key, info.act_count, info.priority, static_cast<std::uint8_t>(info.state)};
}

}  // namespace smd
