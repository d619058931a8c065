// SaFabric: index build and the LFT walk of a path.
#include "smd/sa/sa_fabric.h"

#include <algorithm>

#include "smd/sa/rate.h"

namespace smd::sa {

namespace {

// Before any partition plan, every endport holds the default partition's full entry (IBA 10.9.1.2).
const std::vector<PKey> kDefaultFullOnly{0xFFFF};
const std::vector<PKey> kNoPKeys;

}  // namespace

const std::vector<PKey>& SaFabric::pkeys(Guid port_guid) const {
  return partitions_ ? partitions_->pkeys_of(port_guid) : kDefaultFullOnly;
}

const std::vector<PKey>& SaFabric::requester_pkeys(Lid requester_lid) const {
  if (const Endport* e = by_lid(requester_lid)) return pkeys(e->guid);
  return partitions_ ? kNoPKeys : kDefaultFullOnly;
}

std::shared_ptr<const SaFabric> SaFabric::build(ObservedFabric fabric, std::shared_ptr<const LidMap> lids,
                                                std::shared_ptr<const RoutingTables> tables,
                                                std::uint64_t subnet_prefix,
                                                std::shared_ptr<const PartitionPlan> partitions) {
  auto f = std::make_shared<SaFabric>();
  f->partitions_ = std::move(partitions);
  f->fabric_ = std::move(fabric);
  f->lids_ = lids ? std::move(lids) : std::make_shared<const LidMap>();
  f->tables_ = tables ? std::move(tables) : std::make_shared<const RoutingTables>();
  f->subnet_prefix_ = subnet_prefix;
  if (!f->fabric_.topo) f->fabric_.topo = std::make_shared<Topology>();
  const Topology& topo = *f->fabric_.topo;
  // One record per node, always: handlers index the records by NodeIndex (an unread node has none filled).
  if (f->fabric_.nodes.size() < topo.size()) f->fabric_.nodes.resize(topo.size());
  f->by_lid_.assign(static_cast<std::size_t>(f->lids_->max_lid()) + 1, kNone);
  for (const LidMap::Entry& e : f->lids_->entries()) {
    if (e.owner.node >= topo.size()) continue;
    const Node& node = topo.node(e.owner.node);
    if (e.owner.port >= node.ports.size()) continue;
    const auto idx = static_cast<std::uint32_t>(f->endports_.size());
    f->endports_.push_back({e.owner.node, e.owner.port, node.ports[e.owner.port].guid, e.base, e.lmc});
    f->max_lmc_ = std::max(f->max_lmc_, e.lmc);
    f->by_guid_.emplace(node.ports[e.owner.port].guid, idx);
    const std::size_t span = std::size_t{1} << e.lmc;
    for (std::size_t l = e.base; l < e.base + span && l < f->by_lid_.size(); ++l) f->by_lid_[l] = idx;
  }
  // MTUCap and rate of every port, once: a PathRecord reads them for every port it crosses.
  f->port_base_.reserve(topo.size());
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    f->port_base_.push_back(static_cast<std::uint32_t>(f->port_props_.size()));
    for (PortNum p = 0; p <= topo.node(n).num_ports; ++p) {
      const mad::PortInfo* pi = f->port_info(n, p);
      PortProps props;
      if (pi) {
        props.mtu = pi->mtu_cap;
        props.rate = port_rate_code(pi->link_width_active, pi->link_speed_active, pi->link_speed_ext_active,
                                    pi->link_speed_ext2_active);
      }
      f->port_props_.push_back(props);
    }
  }
  unsigned mft_cap = 0;
  for (const smd::NodeRecord& rec : f->fabric_.nodes) {
    if (rec.switch_info && rec.switch_info->multicast_fdb_cap != 0)
      mft_cap = mft_cap == 0 ? rec.switch_info->multicast_fdb_cap
                             : std::min<unsigned>(mft_cap, rec.switch_info->multicast_fdb_cap);
  }
  if (mft_cap == 0) mft_cap = 1024;
  f->mlid_top_ = static_cast<Lid>(std::min<unsigned>(0xC000u + mft_cap - 1u, 0xFFFEu));
  f->graph_ = SwitchGraph::build(topo);
  f->lfts_ = SwitchLfts(f->graph_, *f->tables_);
  f->targets_ = lid_targets(topo, f->graph_, *f->lids_);
  return f;
}

const Endport* SaFabric::by_guid(Guid port_guid) const {
  const auto it = by_guid_.find(port_guid);
  return it == by_guid_.end() ? nullptr : &endports_[it->second];
}

const Endport* SaFabric::by_lid(Lid lid) const {
  if (lid >= by_lid_.size() || by_lid_[lid] == kNone) return nullptr;
  return &endports_[by_lid_[lid]];
}

Lid SaFabric::record_lid(NodeIndex node, PortNum port) const {
  const Node& n = topo().node(node);
  return lids_->base_lid(node, n.is_switch() ? 0 : port);
}

std::optional<std::uint8_t> SaFabric::engine_sl(Lid slid, Lid dlid) const {
  if (!tables_ || !tables_->layering) return std::nullopt;
  const Endport* src = by_lid(slid);
  if (src == nullptr) return std::nullopt;
  const Node& n = topo().node(src->node);
  NodeIndex sw = src->node;
  if (!n.is_switch()) {
    const Port& p = n.ports[src->port];
    if (!p.connected() || !topo().node(p.peer).is_switch()) return std::nullopt;
    sw = p.peer;
  }
  return VlLayering::sl_of_layer(tables_->layering->layer_of(sw, dlid));
}

bool SaFabric::walk(const Endport& src, Lid dlid, const Endport& dst, std::vector<Hop>& hops) const {
  hops.clear();
  const Topology& t = topo();
  if (dlid >= targets_.size()) return false;
  SwitchIndex first = kNoSwitch;
  PortNum in_port = 0;
  const Node& sn = t.node(src.node);
  if (sn.is_switch()) {
    first = graph_.index_of(src.node);
  } else {
    const Port& p = sn.ports[src.port];
    if (!p.connected()) return false;
    first = graph_.index_of(p.peer);
    in_port = p.peer_port;
    if (first == kNoSwitch) {
      // Two CAs cabled back to back: the only path is the cable itself.
      return p.peer == dst.node && p.peer_port == dst.port;
    }
  }
  if (first == kNoSwitch) return false;
  const LidTarget& target = targets_[dlid];
  PortNum entered = in_port;
  const LftWalkEnd end = walk_lft(
      graph_, first, target, [&](SwitchIndex s) { return lfts_.out_port(s, dlid); },
      [&](SwitchIndex s, PortNum p) {
        hops.push_back({graph_.node(s), entered, p});
        entered = graph_.peer_port(s, p);
      });
  if (!end.delivered()) return false;
  // Delivered to the LID's owner: that is `dst` exactly when dlid is one of dst's LIDs.
  const Endport* owner = by_lid(dlid);
  return owner && owner->node == dst.node && owner->port == dst.port;
}

}  // namespace smd::sa
