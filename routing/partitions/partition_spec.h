// What the operator asks of partitions and their multicast groups, as plain data: config/ parses the YAML
// `partitions:` section (and `smd import-partitions` OpenSM's partitions.conf) into it; the partition
// planner (routing/partitions) resolves it against one Topology; the SA pre-creates its IPoIB broadcast
// and `groups:` multicast groups. IBA 10.9 (partitions), OpenSM doc/partition-config.txt (the vocabulary).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// A 15-bit P_Key base (bits 14:0); bit 15 of a P_Key table entry is the membership (1 full, 0 limited).
using PKeyBase = std::uint16_t;
inline constexpr PKeyBase kDefaultPKeyBase = 0x7fff;
inline constexpr std::uint16_t kPKeyFullBit = 0x8000;

/// Membership of a port in a partition (IBA 10.9.1). kBoth: one full and one limited entry (OpenSM
/// `both`; needs allow_both_pkeys, else it counts as full).
enum class Membership : std::uint8_t { kLimited, kFull, kBoth };

/// Who one member entry names (OpenSM's port specifiers, plus a NodeDescription match).
enum class MemberSelector : std::uint8_t {
  kPortGuid,         ///< one endport by port GUID (a switch by its node GUID = port 0's GUID)
  kNodeDescription,  ///< every endport of the nodes whose NodeDescription equals `node_description`
  kAll,              ///< every endport (CA ports and switch port 0)
  kAllCas,           ///< every CA port
  kAllSwitches,      ///< every switch port 0
  kAllRouters,       ///< every router port (none today: smd sees no routers)
  kSelf,             ///< the SM's own port
};

struct PartitionMember {
  MemberSelector selector = MemberSelector::kAll;
  Guid guid = 0;                         ///< kPortGuid
  std::string node_description;          ///< kNodeDescription
  std::optional<Membership> membership;  ///< none: the partition's default membership
  std::string where;                     ///< "file:line:column" of the entry, for messages
};

/// A multicast group the SM creates for a partition before anyone joins (IPoIB broadcast group or a
/// `groups:` / partitions.conf `mgid=` entry). Codes are IBA's: MTU 4 = 2048, rate 3 = 10 Gb/s, scope 2
/// link-local (IBA 4.1.1, 15.2.5.17).
struct McastGroupSpec {
  std::array<std::uint8_t, 16> mgid{};  ///< for the IPoIB broadcast group: filled in from the P_Key
  std::uint8_t mtu = 4;
  std::uint8_t rate = 3;
  std::uint8_t sl = 0;
  std::uint8_t scope = 2;
  std::uint32_t q_key = 0x0B1B;
  std::uint8_t tclass = 0;
  std::uint32_t flow_label = 0;
  std::string where;
};

/// The IPoIB broadcast group of a partition (RFC 4391): MGID ff1<scope>:401b:<P_Key|0x8000>::ffff:ffff.
struct IpoibSpec {
  bool enabled = false;
  std::uint8_t mtu = 4;
  std::uint8_t rate = 3;
  std::uint8_t sl = 0;
  std::vector<std::uint8_t> scopes{2};  ///< one broadcast group per scope
  std::uint32_t q_key = 0x0B1B;
  std::uint8_t tclass = 0;
  std::uint32_t flow_label = 0;
};

struct PartitionSpec {
  std::string name;
  PKeyBase pkey = 0;  ///< 15-bit base; 0 is invalid
  Membership default_membership = Membership::kLimited;
  bool index0 = false;  ///< put this P_Key at block 0 index 0 of its members (IPoIB uses index 0)
  std::vector<PartitionMember> members;
  IpoibSpec ipoib;
  std::vector<McastGroupSpec> groups;  ///< further pre-created groups of this partition
  std::string where;                   ///< "file:line:column" of the partition, for messages
};

/// PortInfo PartitionEnforcementInbound/Outbound on switch ports facing CAs (IBA 14.2.5.6), as OpenSM's
/// part_enforce.
enum class PartitionEnforcement : std::uint8_t { kBoth, kIn, kOut, kOff };

struct PartitionsSpec {
  std::vector<PartitionSpec> partitions;  ///< the default partition is always among them (0x7fff)
  PartitionEnforcement enforcement = PartitionEnforcement::kBoth;
  bool allow_both_pkeys = false;
};

/// What smd uses when the policy has no `partitions:` section, as OpenSM without a partitions.conf:
/// Default=0x7fff,ipoib : ALL=full.
PartitionsSpec default_partitions();

/// `spec` with the default partition 0x7fff added when it has none (OpenSM: `ALL=limited, SELF=full`),
/// and SELF=full added to the default partition when neither SELF nor ALL is a full member of it: the SM
/// port is always a full member.
PartitionsSpec with_default_partition(PartitionsSpec spec);

/// The IPoIB broadcast MGID of `pkey` in `scope`: ff1<scope>:401b:<pkey|0x8000>:0000:0000:0000:ffff:ffff.
std::array<std::uint8_t, 16> ipoib_broadcast_mgid(PKeyBase pkey, std::uint8_t scope);

}  // namespace smd
