// SaSnapshot: everything the SA answers from, published whole by the SM and read by the SA thread through
// one atomic shared_ptr (no lock): a query during a sweep sees the previous sweep's snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "routing/partitions/partition_spec.h"
#include "routing/qos/qos_levels.h"
#include "smd/sa/sa_fabric.h"
#include "smd/sa/sa_mfts.h"

namespace smd::sa {

/// One SM as an SMInfoRecord shows it (IBA 14.2.5.13 SMInfo).
struct SmEntry {
  Lid lid = 0;
  Guid guid = 0;
  std::uint64_t sm_key = 0;  ///< shown to trusted requesters only
  std::uint32_t act_count = 0;
  std::uint8_t priority = 0;
  std::uint8_t state = 0;  ///< SMInfo:SMState, 3 = MASTER
};

/// Policy values the answers carry (config/policy.h SaPolicy).
struct SaSettings {
  std::uint64_t key = 1;  ///< trusted SM_Key
  std::uint8_t packet_lifetime = 0x12;
  std::uint8_t resp_time_value = 16;  ///< ClassPortInfo:RespTimeValue
  std::uint32_t max_records = 65536;
  bool consolidate_ipv6_snm = true;  ///< multicast.consolidate_ipv6_snm (McastContext)
  /// sa.original_rates_only: PathRecord and MCMemberRecord rates limited to IBA 1.2.1's codes (rate.h
  /// original_rate_code), for clients whose drivers predate 2x widths and HDR.
  bool original_rates_only = false;
  /// sm.multicast: false clears ClassPortInfo:IsUDMulticastSupported (the SM programs no MFTs).
  bool multicast = true;
  /// sa.drop_absent_subscribers: a port's InformInfo subscriptions go when the port leaves the subnet.
  bool drop_absent_subscribers = false;
};

/// ClassPortInfo:RespTimeValue for a response time of `ms` (IBA 13.4.6.2: 4.096 us * 2^value, the
/// smallest value that covers it).
inline std::uint8_t resp_time_value_for_ms(unsigned ms) {
  std::uint8_t v = 0;
  while (v < 31 && 4.096e-3 * static_cast<double>(1u << v) < ms) ++v;
  return v;
}

struct SaSnapshot {
  /// MASTER with a complete sweep behind it (IBA C15-0.1.3: only then does the SA answer).
  bool serving = false;
  /// Another SM was MASTER since this SM last served (or started): when serving starts, what this SM knew
  /// of groups and services is older than that master's subnet (see state_file_origin.h).
  bool other_master_seen = false;
  std::shared_ptr<const SaFabric> fabric;  ///< null before the first configuring sweep
  std::vector<SmEntry> sms;                ///< this SM first, then the others it knows
  SaSettings settings;
  Lid sm_lid = 0;
  /// The routing engine's SL for a (SLID, DLID) path (OpenSM's path_sl hook; VL-layered engines fill it):
  /// nullopt, or no hook, leaves the SL free (0 unless the request names one).
  std::function<std::optional<std::uint8_t>(Lid slid, Lid dlid)> path_sl;
  /// The partition policy whose multicast groups the SA pre-creates (IPoIB broadcast groups, `groups:`);
  /// null: default_partitions() (OpenSM without a partitions.conf). Re-applied when the pointer changes.
  std::shared_ptr<const PartitionsSpec> partitions;
  /// The QoS levels of the policy's `qos:` section over this fabric's ports (OpenSM's qos-policy.conf):
  /// what a PathRecord between two ports gets (SL, MTU and rate caps, PacketLifeTime, allowed P_Keys).
  /// Null: QoS off (qos.enabled false), no level, as OpenSM without -Q.
  std::shared_ptr<const QosLevelMatcher> qos;
  /// The MFTs the SM programmed (MulticastForwardingTableRecord); null: none yet, no records.
  std::shared_ptr<const SaMfts> mfts;
};

/// The P_Keys `port_guid` is a member of, as the fabric's partition plan gave them (SaFabric::pkeys);
/// {0xFFFF} before any fabric.
inline std::vector<std::uint16_t> pkeys_of(const SaSnapshot& snap, Guid port_guid) {
  if (!snap.fabric) return {0xFFFF};
  return snap.fabric->pkeys(port_guid);
}

}  // namespace smd::sa
