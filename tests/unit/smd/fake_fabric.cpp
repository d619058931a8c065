#include "tests/unit/smd/fake_fabric.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "mad/codec/node_description.h"
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"

namespace smd::test {

namespace {
// What every port of the fake fabric supports: LinkWidthSupported 1x|4x, LinkSpeedSupported SDR.
constexpr std::uint8_t kWidthSupported = 3;
constexpr std::uint8_t kSpeedSupported = 1;
}  // namespace

FakeFabric::FakeFabric(boost::asio::io_context& io, const Topology& topo, unsigned retries)
    : io_(io), topo_(topo), retries_(retries) {
  ports_.resize(topo.size());
  lft_.resize(topo.size());
  lft_top_.assign(topo.size(), 0);
  mft_.resize(topo.size());
  mft_cap_.assign(topo.size(), 1024);
  mft_top_.assign(topo.size(), 0);
  mft_top_supported_.assign(topo.size(), false);
  psc_.assign(topo.size(), false);
  life_time_.assign(topo.size(), 0);
  lft_sets_per_node_.assign(topo.size(), 0);
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    ports_[n].resize(node.ports.size());
    for (PortNum p = 0; p < node.ports.size(); ++p) {
      PortSim& s = ports_[n][p];
      s.lid = node.ports[p].lid;
      s.lmc = node.ports[p].lmc;
      s.state = node.ports[p].connected() ? 2 : 1;
      if (p == 0 && node.is_switch()) s.state = 4;
    }
  }
}

void FakeFabric::model_real_devices(RealPortCaps caps) {
  real_ = caps;
  for (auto& node : ports_) {
    for (PortSim& s : node) {
      s.link_width_enabled = caps.width_supported;
      s.link_speed_enabled = caps.speed_supported;
      s.link_speed_ext_enabled = caps.ext_supported;
    }
  }
  for (NodeIndex n = 0; n < topo_.size(); ++n) mft_cap_[n] = kRealMulticastFdbCap;
  // P_Key tables of the order real devices have: 128 entries on an HCA port, 8 on a switch's port 0 and 32
  // for enforcement on its external ports; IsClientReregistrationSupported on every port.
  if (ca_pkey_cap_ == 0) enable_partitions(128, 8, 32);
}

void FakeFabric::refuse(mad::SmpReply& reply, const std::string& why) {
  reply.outcome = mad::SmpOutcome::kBadStatus;
  reply.status = 0x1C;
  if (refused_sets_++ == 0) first_refusal_ = why;
}

std::uint16_t FakeFabric::linear_fdb_cap(NodeIndex n) const {
  return real_ ? kRealLinearFdbCap : static_cast<std::uint16_t>(topo_.node(n).lft_cap);
}

void FakeFabric::unlink(NodeIndex n, PortNum p) {
  const Port& port = topo_.node(n).ports[p];
  for (auto [node, num] : {std::pair{n, p}, std::pair{port.peer, port.peer_port}}) {
    ports_[node][num].state = 1;
    if (topo_.node(node).is_switch()) psc_[node] = true;
  }
}

void FakeFabric::relink(NodeIndex n, PortNum p) {
  const Port& port = topo_.node(n).ports[p];
  for (auto [node, num] : {std::pair{n, p}, std::pair{port.peer, port.peer_port}}) {
    ports_[node][num].state = 2;
    if (topo_.node(node).is_switch()) psc_[node] = true;
  }
}

bool FakeFabric::is_silent(NodeIndex n) const {
  for (NodeIndex s : silent_) {
    if (s == n) return true;
  }
  return false;
}

bool FakeFabric::listed(const std::vector<std::pair<NodeIndex, PortNum>>& list, NodeIndex n, PortNum p) {
  for (const auto& [ln, lp] : list) {
    if (ln == n && lp == p) return true;
  }
  return false;
}

FakeFabric::Target FakeFabric::resolve(const mad::DrPath& path) const {
  Target t{topo_.sm_node, topo_.node(topo_.sm_node).is_switch() ? PortNum{0} : topo_.sm_port};
  for (unsigned i = 1; i <= path.hop_count(); ++i) {
    const Node& node = topo_.node(t.node);
    if (i > 1 && !node.is_switch()) return {};  // CAs do not forward directed-route SMPs
    const PortNum out = path.hop(i);
    if (out == 0 || out > node.num_ports || !node.ports[out].connected()) return {};
    if (ports_[t.node][out].state < 2) return {};
    t = Target{node.ports[out].peer, node.ports[out].peer_port};
  }
  return t;
}

bool FakeFabric::lost_on_hops(unsigned hops) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (unsigned h = 0; h < hops; ++h) {
    if (u(rng_) < hop_loss_) return true;
  }
  return false;
}

bool FakeFabric::loses_first_answer(const mad::SmpRequest& req) const {
  for (const auto& [attr, method] : lose_first_) {
    if (attr == req.attr_id && method == req.method) return true;
  }
  return false;
}

void FakeFabric::submit(mad::SmpRequest req, mad::SmpCallback done) {
  mad::SmpReply reply;
  bool delivered = false;
  for (unsigned attempt = 0; attempt <= retries_ && !delivered; ++attempt) {
    ++stats_.sent;
    reply.attempts = attempt + 1;
    if (attempt > 0) ++stats_.retries;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    if (loss_ > 0 && u(rng_) < loss_) continue;
    if (hop_loss_ > 0 && lost_on_hops(req.path.hop_count())) continue;  // lost on the way out
    delivered = answer(req, reply);
    if (!delivered) continue;
    // Lost on the way back: the SMA did its work, the SM does not hear of it.
    if ((attempt == 0 && loses_first_answer(req)) || (hop_loss_ > 0 && lost_on_hops(req.path.hop_count()))) {
      delivered = false;
    }
  }
  if (delivered) {
    ++stats_.received;
  } else {
    ++stats_.timeouts;
    reply.outcome = mad::SmpOutcome::kTimeout;
  }
  boost::asio::post(io_, [done = std::move(done), reply] { done(reply); });
}

void FakeFabric::store_port_fields(PortSim& s, const mad::PortInfo& in, bool hoq_stuck) const {
  if (!hoq_stuck) s.hoq_life = in.hoq_life;
  // IBA 14.2.5.6: 0 is "no change"; 255 and 15 are "set to supported". ibsim takes only masks.
  const std::uint8_t width_supported = real_ ? real_->width_supported : kWidthSupported;
  const std::uint8_t speed_supported = real_ ? real_->speed_supported : kSpeedSupported;
  if (in.link_width_enabled == 255 && !ibsim_fields_) s.link_width_enabled = width_supported;
  if (in.link_width_enabled != 0 && in.link_width_enabled <= 31) s.link_width_enabled = in.link_width_enabled;
  if (in.link_speed_enabled == 15 && !ibsim_fields_) s.link_speed_enabled = speed_supported;
  if (in.link_speed_enabled != 0 && in.link_speed_enabled <= 7) s.link_speed_enabled = in.link_speed_enabled;
  if (ibsim_fields_) return;
  s.vl_stall_count = in.vl_stall_count;
  s.subnet_timeout = in.subnet_timeout;
  s.master_sm_sl = in.master_sm_sl;
  s.local_phy_errors = in.local_phy_errors;
  s.overrun_errors = in.overrun_errors;
}

bool FakeFabric::answer(const mad::SmpRequest& req, mad::SmpReply& reply) {
  const Target t = resolve(req.path);
  if (t.node == kNoNode || is_silent(t.node)) return false;
  if (auto it = drop_next_.find(t.node); it != drop_next_.end() && it->second > 0) {
    --it->second;
    return false;
  }
  const Node& node = topo_.node(t.node);
  const bool set = req.method == mad::Method::kSet;
  // M_Key check (IBA 14.2.4.1): a wrong key loses every Set, and from protection level 2 on every Get.
  // The lease (14.2.4.2): a discarded SMP starts the port's timer unless the period is 0 (never); the right
  // key stops it; once it runs out, the protection bits are 0 and Gets see the key again.
  PortSim& keeper = ports_[t.node][node.is_switch() ? 0 : t.port];
  if (keeper.lease_ends && clock_s_ >= *keeper.lease_ends) {
    keeper.m_key_protect = 0;
    keeper.lease_ends.reset();
  }
  const bool key_ok = keeper.m_key == 0 || req.m_key == keeper.m_key;
  if (!key_ok && (set || keeper.m_key_protect >= 2)) {
    ++m_key_violations_;
    if (keeper.m_key_lease_period != 0 && !keeper.lease_ends) keeper.lease_ends = clock_s_ + keeper.m_key_lease_period;
    return false;
  }
  if (key_ok && keeper.m_key != 0) keeper.lease_ends.reset();
  reply.outcome = mad::SmpOutcome::kOk;
  reply.status = 0;
  reply.data.fill(0);
  switch (req.attr_id) {
    case mad::attr::kNodeInfo: {
      mad::NodeInfo ni;
      ni.base_version = 1;
      ni.class_version = 1;
      ni.node_type = static_cast<std::uint8_t>(node.type);
      ni.num_ports = node.num_ports;
      if (auto np = num_ports_override_.find(t.node); np != num_ports_override_.end()) {
        ni.num_ports = static_cast<std::uint8_t>(np->second);
      }
      auto it = guid_override_.find(t.node);
      ni.node_guid = it == guid_override_.end() ? node.guid : it->second;
      ni.system_image_guid = ni.node_guid;
      ni.port_guid = node.ports[t.port].guid;
      if (auto pg = port_guid_override_.find(t.node); pg != port_guid_override_.end()) ni.port_guid = pg->second;
      if (auto im = impersonate_.find(t.node); im != impersonate_.end()) {
        const Node& of = topo_.node(im->second);
        ni.node_guid = ni.system_image_guid = of.guid;
        if (t.port < of.ports.size()) ni.port_guid = of.ports[t.port].guid;
      }
      ni.local_port_num = t.port;
      ni.partition_cap = node.is_switch() ? sw_pkey_cap_ : ca_pkey_cap_;
      if (auto lp = local_port_override_.find(t.node); lp != local_port_override_.end()) ni.local_port_num = lp->second;
      ni.encode(reply.data);
      return true;
    }
    case mad::attr::kNodeDescription: {
      mad::NodeDescription nd;
      nd.text = node.description;
      nd.encode(reply.data);
      return true;
    }
    case mad::attr::kSwitchInfo: {
      if (!node.is_switch()) break;
      const auto refusal = set && real_ ? switch_info_set_refusal(mad::SwitchInfo::decode(req.data)) : std::nullopt;
      if (refusal) refuse(reply, *refusal);
      if (set && !refusal) {
        const auto in = mad::SwitchInfo::decode(req.data);
        ++switch_info_sets_;
        lft_top_[t.node] = in.linear_fdb_top;
        life_time_[t.node] = in.life_time_value;
        if (in.port_state_change) psc_[t.node] = false;  // writing 1 clears it (IBA 14.2.5.4)
        if (mft_top_supported_[t.node]) mft_top_[t.node] = in.multicast_fdb_top;
      }
      mad::SwitchInfo si;
      si.port_state_change = psc_[t.node];
      si.linear_fdb_cap = linear_fdb_cap(t.node);
      si.linear_fdb_top = lft_top_[t.node];
      si.life_time_value = life_time_[t.node];
      si.partition_enforcement_cap = enf_cap_;
      si.inbound_enforcement_cap = si.outbound_enforcement_cap = enf_cap_ != 0;
      si.multicast_fdb_cap = mft_cap_[t.node];
      si.multicast_fdb_top = mft_top_[t.node];
      si.optimized_sl_to_vl_mapping_programming = sl2vl_optimized_;
      si.encode(reply.data);
      return true;
    }
    case mad::attr::kPortInfo: {
      // ibsim, like many SMAs, takes the low bits as the port and ignores bit 31.
      const PortNum p = node.is_switch() ? mad::port_of_port_info_mod(req.attr_mod) : t.port;
      if (p > node.num_ports) break;
      PortSim& s = ports_[t.node][p];
      const bool endport = p == 0 || !node.is_switch();
      const bool bit31 = (req.attr_mod & mad::kSmSupportsExtendedSpeeds) != 0;
      const bool ext_capable = real_.has_value();  // every modelled device has extended speeds
      if (!set) {
        ++port_info_gets_;
        if (bit31) ++port_info_gets_extended_;
      }
      std::optional<std::string> refusal;
      if (set && real_) {
        const auto in = mad::PortInfo::decode(req.data);
        refusal = port_info_set_refusal(in, req.attr_mod, *real_, endport, ext_capable);
        const Port& port = node.ports[p];
        const std::uint8_t peer_state = port.connected() ? ports_[port.peer][port.peer_port].state : std::uint8_t{0};
        const bool state_ok = in.port_state == 0 || (in.port_state == 3 && s.state == 2) ||
                              (in.port_state == 4 && s.state == 3 && peer_state >= 3) || in.port_state == 1;
        // A real SMA checks the transition with the rest: a refused one changes no field either.
        if (!refusal && !state_ok) refusal = "PortState " + std::to_string(in.port_state) + " from " + std::to_string(s.state);
      }
      if (refusal) refuse(reply, *refusal + " (port " + std::to_string(p) + ")");
      if (set && !refusal) {
        const auto in = mad::PortInfo::decode(req.data);
        if (real_ && bit31) {
          s.link_speed_ext_enabled = stored_enable(in.link_speed_ext_enabled, s.link_speed_ext_enabled, 31,
                                                   real_->ext_supported);
        }
        if ((p == 0 || !node.is_switch()) && !listed(stuck_lid_, t.node, p)) {
          s.lid = in.lid;
          s.lmc = in.lmc;
          s.master_sm_lid = in.master_sm_lid;
          s.gid_prefix = in.gid_prefix;
          s.m_key = in.m_key;
          s.m_key_protect = in.m_key_protect_bits;
          s.m_key_lease_period = in.m_key_lease_period;
        }
        s.enforce_in = in.partition_enforcement_inbound;
        s.enforce_out = in.partition_enforcement_outbound;
        if (in.client_reregister) ++s.reregisters;
        s.vl_high_limit = in.vl_high_limit;
        ++port_info_sets_;
        store_port_fields(s, in, listed(stuck_hoq_, t.node, p));
        if (in.neighbor_mtu) s.neighbor_mtu = in.neighbor_mtu;
        if (in.operational_vls) s.operational_vls = in.operational_vls;
        // PortPhysicalState (IBA table 155): Disabled takes the link down at both ends and keeps it down;
        // Polling lets a disabled port train again (both ends Init), as a real port with its cable in.
        if (in.port_physical_state == 3 && p != 0 && node.ports[p].connected() && !s.phys_disabled) {
          s.phys_disabled = true;
          unlink(t.node, p);
        } else if (in.port_physical_state == 2 && s.phys_disabled) {
          s.phys_disabled = false;
          relink(t.node, p);
        }
        if (in.port_state != 0) {
          const Port& port = node.ports[p];
          const std::uint8_t peer_state = port.connected() ? ports_[port.peer][port.peer_port].state : std::uint8_t{0};
          const bool ok = (in.port_state == 3 && s.state == 2) ||
                          (in.port_state == 4 && s.state == 3 && peer_state >= 3) || (in.port_state == 1);
          if (!ok) {
            reply.outcome = mad::SmpOutcome::kBadStatus;
            reply.status = 0x1C;
          } else {
            s.state = in.port_state;
          }
        }
      }
      mad::PortInfo pi;
      pi.lid = s.lid;
      pi.lmc = s.lmc;
      pi.master_sm_lid = s.master_sm_lid;
      pi.gid_prefix = s.gid_prefix;
      pi.m_key = key_ok || keeper.m_key_protect == 0 ? s.m_key : 0;  // level 1 hides the key from strangers
      pi.m_key_protect_bits = s.m_key_protect;
      pi.m_key_lease_period = s.m_key_lease_period;
      pi.port_state = s.state;
      pi.port_physical_state = node.ports[p].connected() || p == 0 ? 5 : 2;
      if (listed(reported_down_, t.node, p) || s.phys_disabled) {
        pi.port_state = 1;
        pi.port_physical_state = 3;  // Disabled
      }
      pi.local_port_num = t.port;
      pi.link_width_active = 2;
      pi.link_speed_active = 1;
      pi.mtu_cap = 5;
      auto cap = vl_cap_.find({t.node, p});
      pi.vl_cap = cap == vl_cap_.end() ? 4 : cap->second;
      pi.vl_high_limit = s.vl_high_limit;
      pi.hoq_life = s.hoq_life;
      pi.vl_stall_count = ibsim_fields_ ? 7 : s.vl_stall_count;
      pi.subnet_timeout = ibsim_fields_ ? 31 : s.subnet_timeout;
      pi.master_sm_sl = ibsim_fields_ ? 0 : s.master_sm_sl;
      pi.local_phy_errors = ibsim_fields_ ? 0 : s.local_phy_errors;
      pi.overrun_errors = ibsim_fields_ ? 0 : s.overrun_errors;
      pi.link_width_enabled = s.link_width_enabled;
      pi.link_width_supported = kWidthSupported;
      pi.link_speed_enabled = s.link_speed_enabled;
      pi.link_speed_supported = kSpeedSupported;
      pi.vl_arbitration_high_cap = vlarb_high_cap_;
      pi.vl_arbitration_low_cap = vlarb_low_cap_;
      if (vlarb_high_cap_ != 0 && !node.is_switch()) pi.capability_mask |= 1u << 6;  // IsSLMappingSupported
      pi.neighbor_mtu = s.neighbor_mtu;
      pi.operational_vls = s.operational_vls;
      pi.partition_enforcement_inbound = s.enforce_in;
      pi.partition_enforcement_outbound = s.enforce_out;
      if (ca_pkey_cap_ != 0) pi.capability_mask |= mad::capmask::kIsClientReregistrationSupported;
      if (real_) {
        pi.link_width_supported = real_->width_supported;
        pi.link_speed_supported = real_->speed_supported;
        pi.link_speed_active = 4;
        pi.mtu_cap = real_->mtu_cap;
        if (cap == vl_cap_.end()) pi.vl_cap = real_->vl_cap;
        if (endport) pi.capability_mask |= mad::capmask::kIsExtendedSpeedsSupported;
        if (endport && real_->xdr) {
          pi.capability_mask |= mad::capmask::kIsCapabilityMask2Supported;
          pi.capability_mask2 |= mad::capmask2::kIsExtendedSpeeds2Supported;
        }
        if (bit31) {  // without it a real port answers as if it had no extended speeds
          pi.link_speed_ext_supported = real_->ext_supported;
          pi.link_speed_ext_enabled = s.link_speed_ext_enabled;
          const bool trained = p != 0 && node.ports[p].connected() && s.state >= 2;
          pi.link_speed_ext_active = trained ? real_->ext_active : 0;
          if (real_->xdr) {
            pi.link_speed_ext2_supported = 1;
            pi.link_speed_ext2_enabled = 1;
            pi.link_speed_ext2_active = trained ? 1 : 0;
          }
        }
      }
      if (p == 0 && node.is_switch() && mft_top_supported_[t.node]) {
        pi.capability_mask |= mad::capmask::kIsMulticastFdbTopSupported;
      }
      pi.encode(reply.data);
      return true;
    }
    case mad::attr::kLinearForwardingTable: {
      if (!node.is_switch()) break;
      const std::size_t base = static_cast<std::size_t>(req.attr_mod) * 64;
      if (base >= linear_fdb_cap(t.node)) break;
      auto& table = lft_[t.node];
      if (table.size() < base + 64) table.resize(base + 64, 0xFF);
      if (set) {
        ++lft_block_sets_;
        ++lft_sets_per_node_[t.node];
        std::copy(req.data.begin(), req.data.end(), table.begin() + static_cast<std::ptrdiff_t>(base));
      }
      std::copy(table.begin() + static_cast<std::ptrdiff_t>(base),
                table.begin() + static_cast<std::ptrdiff_t>(base + 64), reply.data.begin());
      return true;
    }
    case mad::attr::kPKeyTable: {
      const PortNum p = node.is_switch() ? static_cast<PortNum>(req.attr_mod >> 16) : t.port;
      const std::size_t cap = node.is_switch() ? (p == 0 ? sw_pkey_cap_ : enf_cap_) : ca_pkey_cap_;
      const std::size_t base = static_cast<std::size_t>(req.attr_mod & 0xffff) * 32;
      if (p > node.num_ports || base >= cap) break;
      auto& table = ports_[t.node][p].pkeys;
      if (table.size() < base + 32) table.resize(base + 32, 0);
      if (set) {
        ++pkey_block_sets_;
        for (std::size_t i = 0; i < 32; ++i) {
          table[base + i] = static_cast<std::uint16_t>((req.data[2 * i] << 8) | req.data[2 * i + 1]);
        }
      }
      for (std::size_t i = 0; i < 32; ++i) {
        reply.data[2 * i] = static_cast<std::uint8_t>(table[base + i] >> 8);
        reply.data[2 * i + 1] = static_cast<std::uint8_t>(table[base + i] & 0xff);
      }
      return true;
    }
    case mad::attr::kSlToVlTable: {
      std::vector<std::pair<PortNum, PortNum>> pairs;  // (in, out)
      if (!node.is_switch()) {
        pairs.emplace_back(0, t.port);
      } else {
        const bool all_in = sl2vl_optimized_ && (req.attr_mod & (1u << 17));
        const bool all_out = sl2vl_optimized_ && (req.attr_mod & (1u << 16));
        const PortNum in = static_cast<PortNum>((req.attr_mod >> 8) & 0xff),
                      out = static_cast<PortNum>(req.attr_mod & 0xff);
        if (in > node.num_ports || out > node.num_ports) break;
        for (PortNum o = all_out ? 1 : out; o <= (all_out ? node.num_ports : out); ++o) {
          for (PortNum i = all_in ? 0 : in; i <= (all_in ? node.num_ports : in); ++i) pairs.emplace_back(i, o);
        }
      }
      std::array<std::uint8_t, 16> want{};
      for (std::size_t k = 0; k < 8; ++k) {
        want[2 * k] = req.data[k] >> 4;
        want[2 * k + 1] = req.data[k] & 0xf;
      }
      if (set) {
        sl2vl_sets_.emplace_back(t.node, req.attr_mod);
        for (const auto& [i, o] : pairs) sl2vl_[{t.node, i, o}] = want;
      }
      const auto held = sl2vl(t.node, pairs.front().first, pairs.front().second);
      for (std::size_t k = 0; k < 8; ++k)
        reply.data[k] = static_cast<std::uint8_t>((held[2 * k] << 4) | held[2 * k + 1]);
      return true;
    }
    case mad::attr::kVlArbTable: {
      const PortNum p = node.is_switch() ? static_cast<PortNum>(req.attr_mod & 0xffff) : t.port;
      const unsigned block = req.attr_mod >> 16;
      const unsigned cap = block <= 2 ? vlarb_low_cap_ : vlarb_high_cap_;
      if (p > node.num_ports || block < 1 || block > 4 || ((block - 1) % 2) * 32 >= cap) break;
      if (set) {
        vlarb_sets_.emplace_back(t.node, req.attr_mod);
        vlarb_[{t.node, p, block}] = req.data;
      }
      reply.data = vlarb(t.node, p, block);
      return true;
    }
    case mad::attr::kMulticastForwardingTable: {
      if (!node.is_switch()) break;
      const unsigned block = req.attr_mod & 0x1FF;
      const unsigned position = req.attr_mod >> 28;
      if (block * 32 >= mft_cap_[t.node] || position > node.num_ports / 16u) {
        if (real_) break;  // a real switch refuses the modifier
        return true;       // ibsim: zeros
      }
      auto& stored = mft_[t.node][req.attr_mod & 0xF00001FF];
      if (set) {
        ++mft_block_sets_;
        stored = req.data;
      }
      reply.data = stored;
      return true;
    }
    default: break;
  }
  reply.outcome = mad::SmpOutcome::kBadStatus;
  // A real SMA knows these attributes and names the modifier (or the node type) as what is wrong.
  const bool known = req.attr_id == mad::attr::kLinearForwardingTable || req.attr_id == mad::attr::kPKeyTable ||
                     req.attr_id == mad::attr::kPortInfo || req.attr_id == mad::attr::kVlArbTable ||
                     req.attr_id == mad::attr::kSlToVlTable || req.attr_id == mad::attr::kMulticastForwardingTable;
  reply.status = real_ && known ? 0x1C : 0x0C;  // else: unsupported method/attribute combination
  if (real_ && known && set) ++refused_sets_;
  return true;
}

std::array<std::uint8_t, 16> FakeFabric::sl2vl(NodeIndex n, PortNum in, PortNum out) const {
  auto it = sl2vl_.find({n, in, out});
  if (it != sl2vl_.end()) return it->second;
  std::array<std::uint8_t, 16> dflt{};
  for (std::size_t sl = 0; sl < 16; ++sl) dflt[sl] = static_cast<std::uint8_t>(sl == 15 ? 7 : sl);
  return dflt;
}

std::array<std::uint8_t, 64> FakeFabric::vlarb(NodeIndex n, PortNum p, unsigned block) const {
  auto it = vlarb_.find({n, p, block});
  return it == vlarb_.end() ? std::array<std::uint8_t, 64>{} : it->second;
}

std::uint16_t FakeFabric::pkey(NodeIndex n, PortNum p, std::size_t index) const {
  const auto& table = ports_[n][p].pkeys;
  return index < table.size() ? table[index] : 0;
}

std::uint16_t FakeFabric::mft_mask(NodeIndex n, std::uint16_t mlid, unsigned position) const {
  const unsigned index = mlid - 0xC000u;
  auto it = mft_[n].find((position << 28) | (index / 32));
  if (it == mft_[n].end()) return 0;
  return static_cast<std::uint16_t>((it->second[2 * (index % 32)] << 8) | it->second[2 * (index % 32) + 1]);
}

}  // namespace smd::test
