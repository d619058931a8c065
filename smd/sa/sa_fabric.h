// SaFabric: the fabric of one configuring sweep frozen for the SA (IBA 15): the decoded records that
// sweep left, its LIDs and its verified LFTs, indexed the way queries look them up. Built once per heavy
// sweep on the SM's thread and then only read, by the SA thread, without a lock (STYLE: frozen snapshots).
// Paths are walked over the LFTs with the one LFT walker (routing/model/lft_walk.h), so a PathRecord
// describes what the switches were programmed to do.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/model/lid_map.h"
#include "routing/partitions/partition_plan.h"
#include "smd/fabric/observed.h"

namespace smd::sa {

/// A port that owns LIDs: a CA (or router) port, or a switch's port 0.
struct Endport {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  Guid guid = 0;
  Lid base_lid = 0;
  std::uint8_t lmc = 0;
};

class SaFabric {
 public:
  /// Index `fabric` (the sweep's fabric as known at its end: PortInfo with the LIDs the sweep set) with
  /// the sweep's LIDs, tables and partition plan (null: every endport a full member of the default
  /// partition only, as before any plan). O(nodes + ports + max LID).
  static std::shared_ptr<const SaFabric> build(ObservedFabric fabric, std::shared_ptr<const LidMap> lids,
                                               std::shared_ptr<const RoutingTables> tables, std::uint64_t subnet_prefix,
                                               std::shared_ptr<const PartitionPlan> partitions = nullptr);

  const Topology& topo() const { return *fabric_.topo; }
  const ObservedFabric& observed() const { return fabric_; }
  const LidMap& lids() const { return *lids_; }
  const RoutingTables& tables() const { return *tables_; }
  std::uint64_t subnet_prefix() const { return subnet_prefix_; }

  /// Every endport with a LID, by base LID.
  const std::vector<Endport>& endports() const { return endports_; }
  /// The largest LMC of any endport: a PathRecord between two ports walks up to 4^max_lmc() LID pairs.
  std::uint8_t max_lmc() const { return max_lmc_; }
  /// The P_Keys the endport with `port_guid` is a member of (partition order; IBA 10.9), as the sweep's
  /// plan gave them; empty for a port in no partition.
  const std::vector<PKey>& pkeys(Guid port_guid) const;
  /// The P_Keys of the port a request came from (its source LID). A LID that names no endport holds none
  /// once there is a plan (it is in no partition); before any plan everyone is in the default partition.
  const std::vector<PKey>& requester_pkeys(Lid requester_lid) const;
  /// The sweep's partition plan, null when there was none.
  const PartitionPlan* partitions() const { return partitions_.get(); }

  /// Endport by port GUID, or null.
  const Endport* by_guid(Guid port_guid) const;
  /// Endport owning `lid` (any LID of its LMC range), or null.
  const Endport* by_lid(Lid lid) const;
  /// The LID a PortInfoRecord of (node, port) carries: a switch's port-0 LID for each of its ports, the
  /// port's own base LID for a CA port; 0 when it has none.
  Lid record_lid(NodeIndex node, PortNum port) const;

  /// The PortInfo of (node, port) as the sweep left it, or null when it was not read.
  const mad::PortInfo* port_info(NodeIndex node, PortNum port) const {
    if (node >= fabric_.nodes.size() || port >= fabric_.nodes[node].ports.size()) return nullptr;
    return fabric_.port_info(node, port);
  }
  /// MTUCap (IBA code) and data-rate code (smd/sa/rate.h) of a port; 0 when its PortInfo is unknown.
  std::uint8_t mtu_cap(NodeIndex node, PortNum port) const { return port_props_[port_base_[node] + port].mtu; }
  std::uint8_t rate(NodeIndex node, PortNum port) const { return port_props_[port_base_[node] + port].rate; }
  /// The highest MLID every switch can forward: 0xC000 + min over switches of SwitchInfo MulticastFDBCap
  /// - 1 (OpenSM's max_mcast_lid_ho), 1024 entries when no switch reported a capacity, 0xFFFE at most.
  Lid mlid_top() const { return mlid_top_; }

  /// The SL a VL-layered engine put the path from `slid` to `dlid` on (VlLayering::sl_of_layer of the
  /// layer of (the source's switch, dlid)): a CA port's switch is its peer, a switch LID's is itself.
  /// nullopt when the tables are not layered or `slid` names no endport cabled to a switch.
  std::optional<std::uint8_t> engine_sl(Lid slid, Lid dlid) const;

  /// The walk of LID `dlid` from endport `src`, hop by hop as the switches forward it.
  struct Hop {
    NodeIndex node;
    PortNum in_port;   ///< port the packet enters by
    PortNum out_port;  ///< port it leaves by
  };
  /// Whether packets from `src` for `dlid` reach `dst`; `hops` gets every switch crossed (at most the
  /// number of switches). A source or destination switch port 0 enters/leaves by port 0.
  bool walk(const Endport& src, Lid dlid, const Endport& dst, std::vector<Hop>& hops) const;

 private:
  ObservedFabric fabric_;
  std::shared_ptr<const LidMap> lids_;
  std::shared_ptr<const RoutingTables> tables_;
  std::uint64_t subnet_prefix_ = 0;
  std::shared_ptr<const PartitionPlan> partitions_;
  Lid mlid_top_ = 0xC3FF;
  std::vector<Endport> endports_;
  std::uint8_t max_lmc_ = 0;
  std::unordered_map<Guid, std::uint32_t> by_guid_;  // -> endports_ index
  std::vector<std::uint32_t> by_lid_;                // LID -> endports_ index, or kNone
  SwitchGraph graph_;
  SwitchLfts lfts_;
  std::vector<LidTarget> targets_;
  struct PortProps {
    std::uint8_t mtu = 0;
    std::uint8_t rate = 0;
  };
  std::vector<std::uint32_t> port_base_;  // node -> first index in port_props_
  std::vector<PortProps> port_props_;     // MTUCap and rate code of every (node, port), 0 when unread

  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
};

}  // namespace smd::sa
