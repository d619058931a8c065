#include "routing/partitions/partition_spec.h"

#include <algorithm>

namespace smd {

PartitionsSpec default_partitions() {
  PartitionSpec def;
  def.name = "Default";
  def.pkey = kDefaultPKeyBase;
  def.default_membership = Membership::kFull;
  def.members.push_back({MemberSelector::kAll, 0, {}, Membership::kFull, "built-in"});
  def.ipoib.enabled = true;
  def.where = "built-in";
  PartitionsSpec spec;
  spec.partitions.push_back(std::move(def));
  return spec;
}

PartitionsSpec with_default_partition(PartitionsSpec spec) {
  auto it = std::find_if(spec.partitions.begin(), spec.partitions.end(),
                         [](const PartitionSpec& p) { return p.pkey == kDefaultPKeyBase; });
  if (it == spec.partitions.end()) {
    PartitionSpec def;
    def.name = "Default";
    def.pkey = kDefaultPKeyBase;
    def.members.push_back({MemberSelector::kAll, 0, {}, Membership::kLimited, "built-in"});
    def.where = "built-in";
    spec.partitions.insert(spec.partitions.begin(), std::move(def));
    it = spec.partitions.begin();
  }
  // SELF is covered by a full (or both) SELF entry, or by ALL as a full member: ALL names the SM's port too.
  const bool has_self_full = std::any_of(it->members.begin(), it->members.end(), [&](const PartitionMember& m) {
    return (m.selector == MemberSelector::kSelf || m.selector == MemberSelector::kAll) &&
           m.membership.value_or(it->default_membership) != Membership::kLimited;
  });
  if (!has_self_full) it->members.push_back({MemberSelector::kSelf, 0, {}, Membership::kFull, "built-in"});
  return spec;
}

std::array<std::uint8_t, 16> ipoib_broadcast_mgid(PKeyBase pkey, std::uint8_t scope) {
  std::array<std::uint8_t, 16> mgid{};
  mgid[0] = 0xff;
  mgid[1] = static_cast<std::uint8_t>(0x10 | (scope & 0x0f));
  mgid[2] = 0x40;
  mgid[3] = 0x1b;
  const std::uint16_t full = static_cast<std::uint16_t>(pkey | kPKeyFullBit);
  mgid[4] = static_cast<std::uint8_t>(full >> 8);
  mgid[5] = static_cast<std::uint8_t>(full & 0xff);
  for (unsigned i = 12; i < 16; ++i) mgid[i] = 0xff;
  return mgid;
}

}  // namespace smd
