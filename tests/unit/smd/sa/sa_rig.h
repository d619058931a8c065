// A small fabric built by hand for the SA tests, with request MADs written through libibmad's fields and
// answers read back the same way (never through mad/sa's codecs).
//
//        A(3) --p2-- S0 (LID 1) --p1 ======= p1-- S1 (LID 2) --p2-- C(5)
//        B(4) --p3--/                                       \--p3-- D(6)
//
// CA ports: 4x SDR (rate code 3, 10 Gb/s), MTUCap 5 (4096). The S0-S1 link is 1x DDR (code 5, 5 Gb/s:
// slower than 10 although 5 > 3), MTUCap 4 (2048) at S0 p1 and 3 (1024) at S1 p1; S0 p3 has MTUCap 4.
// So A->C: MTU 3 (S1 p1, a middle hop), rate 5; A->B: MTU 4, rate 3.
// LFTs are written by hand: S0 sends 1->0, 2->1, 3->2, 4->3, 5->1, 6->1; S1 sends 1->1, 2->0, 3->1,
// 4->1, 5->2, 6->3. With `lmc1`, A owns 8..9 and C 10..11 (LMC 1) instead of 3 and 5. With `black_hole`,
// S0 has no entry for D's LID 6. With `no_d`, D's port has no LID (it left the subnet). With `loop`, S1
// sends LID 6 back to S0.
#pragma once

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/transport/mad_channel.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "tests/unit/smd/sa/sa_test_bits.h"
#include "smd/fabric/observed.h"
#include "smd/sa/sa_dispatch.h"
#include "smd/sa/sa_fabric.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa::testing {

inline constexpr std::uint64_t kPrefix = 0xFE80000000000000ull;
inline constexpr Guid kS0 = 0x0002C90000000100ull;
inline constexpr Guid kS1 = 0x0002C90000000200ull;
inline constexpr Guid kA = 0x0002C90000000A00ull;  // node GUIDs; port 1 GUID = node GUID + 1
inline constexpr Guid kB = 0x0002C90000000B00ull;
inline constexpr Guid kC = 0x0002C90000000C00ull;
inline constexpr Guid kD = 0x0002C90000000D00ull;
inline constexpr std::uint64_t kMKey = 0x1122334455667788ull;
inline constexpr std::uint32_t kCaCapMask = 0x02510868;  // bits 3, 5, 6, 11, 16, 18, 22, 25
inline constexpr std::uint32_t kCapMaskB = 0x02510068;   // B lacks bit 11
inline constexpr std::uint64_t kTrustedKey = 0x5A5A5A5A00000001ull;

struct RigOptions {
  bool lmc1 = false;
  bool black_hole = false;
  bool no_d = false;
  bool loop = false;  ///< S1 sends D's LID back to S0 instead of to D: a forwarding loop
};

struct Rig {
  NodeIndex s0 = 0, s1 = 1, a = 2, b = 3, c = 4, d = 5;
  Lid lid_a = 3, lid_b = 4, lid_c = 5, lid_d = 6;
  std::shared_ptr<const SaFabric> fabric;
  SaSnapshot snap;
  std::shared_ptr<const LidMap> lids;
  std::shared_ptr<const RoutingTables> tables;
};

/// Rebuild the rig's fabric as if the sweep's partition plan made `members` (port GUID -> P_Keys) the
/// endports' memberships; ports not listed are in no partition.
inline void set_partitions(Rig& r, std::unordered_map<Guid, std::vector<PKey>> members) {
  auto plan = std::make_shared<PartitionPlan>();
  plan->members = std::move(members);
  r.fabric = SaFabric::build(r.fabric->observed(), r.lids, r.tables, kPrefix, plan);
  r.snap.fabric = r.fabric;
}

inline mad::PortInfo port_info(Lid lid, std::uint8_t lmc, std::uint8_t mtu_cap, std::uint8_t width,
                               std::uint8_t speed) {
  mad::PortInfo pi;
  pi.m_key = kMKey;
  pi.gid_prefix = kPrefix;
  pi.lid = lid;
  pi.lmc = lmc;
  pi.master_sm_lid = 1;
  pi.mtu_cap = mtu_cap;
  pi.link_width_active = width;
  pi.link_width_enabled = width;
  pi.link_width_supported = 3;
  pi.link_speed_active = speed;
  pi.link_speed_supported = 3;
  pi.port_state = 4;
  pi.port_physical_state = 5;
  pi.capability_mask = 0;
  return pi;
}

inline Rig make_rig(RigOptions o = {}) {
  Rig r;
  auto topo = std::make_shared<Topology>();
  ObservedFabric obs;
  auto add = [&](Guid guid, NodeType type, PortNum nports, const char* desc) {
    Node n;
    n.guid = guid;
    n.system_image_guid = guid;
    n.type = type;
    n.description = desc;
    n.num_ports = nports;
    n.ports.resize(nports + 1u);
    for (PortNum p = 0; p <= nports; ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    auto idx = topo->add_node(std::move(n));
    EXPECT_TRUE(idx.ok());
    smd::NodeRecord rec;
    rec.node_info.base_version = 1;
    rec.node_info.class_version = 1;
    rec.node_info.node_type = type == NodeType::kSwitch ? 2 : 1;
    rec.node_info.num_ports = nports;
    rec.node_info.system_image_guid = guid;
    rec.node_info.node_guid = guid;
    rec.node_info.port_guid = type == NodeType::kSwitch ? guid : guid + 1;
    rec.node_info.partition_cap = 32;
    rec.node_info.device_id = 0x1003;
    rec.node_info.vendor_id = 0x0002C9;
    rec.node_info.local_port_num = 1;
    rec.ports.resize(nports + 1u);
    obs.nodes.push_back(rec);
    return *idx;
  };
  r.s0 = add(kS0, NodeType::kSwitch, 8, "switch S0");
  r.s1 = add(kS1, NodeType::kSwitch, 8, "switch S1");
  r.a = add(kA, NodeType::kCa, 1, "host A mlx4_0");
  r.b = add(kB, NodeType::kCa, 1, "host B mlx4_0");
  r.c = add(kC, NodeType::kCa, 1, "host C mlx4_0");
  r.d = add(kD, NodeType::kCa, 1, "host D mlx4_0");
  EXPECT_TRUE(topo->connect(r.s0, 1, r.s1, 1).ok());
  EXPECT_TRUE(topo->connect(r.a, 1, r.s0, 2).ok());
  EXPECT_TRUE(topo->connect(r.b, 1, r.s0, 3).ok());
  EXPECT_TRUE(topo->connect(r.c, 1, r.s1, 2).ok());
  EXPECT_TRUE(topo->connect(r.d, 1, r.s1, 3).ok());

  const std::uint8_t lmc = o.lmc1 ? 1 : 0;
  if (o.lmc1) {
    r.lid_a = 8;
    r.lid_c = 10;
  }
  auto lids = std::make_shared<LidMap>();
  EXPECT_TRUE(lids->assign(r.s0, 0, 1, 0).ok());
  EXPECT_TRUE(lids->assign(r.s1, 0, 2, 0).ok());
  EXPECT_TRUE(lids->assign(r.a, 1, r.lid_a, lmc).ok());
  EXPECT_TRUE(lids->assign(r.b, 1, r.lid_b, 0).ok());
  EXPECT_TRUE(lids->assign(r.c, 1, r.lid_c, lmc).ok());
  if (!o.no_d) {
    EXPECT_TRUE(lids->assign(r.d, 1, r.lid_d, 0).ok());
  }

  // PortInfo as the sweep left it.
  auto& n = obs.nodes;
  n[r.s0].ports[0].port_info = port_info(1, 0, 5, 2, 1);
  n[r.s1].ports[0].port_info = port_info(2, 0, 5, 2, 1);
  n[r.s0].ports[1].port_info = port_info(0, 0, 4, 1, 2);  // 1x DDR
  n[r.s1].ports[1].port_info = port_info(0, 0, 3, 1, 2);
  n[r.s0].ports[2].port_info = port_info(0, 0, 5, 2, 1);
  n[r.s0].ports[3].port_info = port_info(0, 0, 4, 2, 1);
  n[r.s1].ports[2].port_info = port_info(0, 0, 5, 2, 1);
  n[r.s1].ports[3].port_info = port_info(0, 0, 5, 2, 1);
  n[r.a].ports[1].port_info = port_info(r.lid_a, lmc, 5, 2, 1);
  n[r.b].ports[1].port_info = port_info(r.lid_b, 0, 5, 2, 1);
  n[r.c].ports[1].port_info = port_info(r.lid_c, lmc, 5, 2, 1);
  n[r.d].ports[1].port_info = port_info(o.no_d ? 0 : r.lid_d, 0, 5, 2, 1);
  for (NodeIndex x : {r.a, r.c, r.d}) n[x].ports[1].port_info->capability_mask = kCaCapMask;
  n[r.b].ports[1].port_info->capability_mask = kCapMaskB;

  auto tables = std::make_shared<RoutingTables>();
  tables->engine = "by-hand";
  tables->lft.resize(topo->size());
  Lft& l0 = tables->lft[r.s0];
  Lft& l1 = tables->lft[r.s1];
  l0.set(1, 0);
  l0.set(2, 1);
  l1.set(1, 1);
  l1.set(2, 0);
  for (unsigned i = 0; i < (1u << lmc); ++i) {
    l0.set(static_cast<Lid>(r.lid_a + i), 2);
    l0.set(static_cast<Lid>(r.lid_c + i), 1);
    l1.set(static_cast<Lid>(r.lid_a + i), 1);
    l1.set(static_cast<Lid>(r.lid_c + i), 2);
  }
  l0.set(r.lid_b, 3);
  l1.set(r.lid_b, 1);
  if (!o.black_hole) l0.set(r.lid_d, 1);
  l1.set(r.lid_d, o.loop ? 1 : 3);

  obs.topo = topo;
  r.fabric = SaFabric::build(std::move(obs), lids, tables, kPrefix);
  r.lids = lids;
  r.tables = tables;
  r.snap.serving = true;
  r.snap.fabric = r.fabric;
  r.snap.settings.key = kTrustedKey;
  r.snap.settings.packet_lifetime = 0x13;
  r.snap.sm_lid = 1;
  r.snap.sms.push_back(SmEntry{1, kS0, kTrustedKey, 7, 5, 3});
  return r;
}

// ---- MADs through libibmad ----

using Mad = std::array<std::uint8_t, 256>;

inline Mad request(std::uint8_t method, std::uint16_t attr, std::uint64_t mask, std::uint64_t sm_key = 0,
                   std::uint64_t tid = 0x1234) {
  Mad m{};
  ib_set(m, IB_MAD_BASEVER_F, 1);
  ib_set(m, IB_MAD_MGMTCLASS_F, 3);
  ib_set(m, IB_MAD_CLASSVER_F, 2);
  ib_set(m, IB_MAD_METHOD_F, method & 0x7F);
  ib_set(m, IB_MAD_RESPONSE_F, method >> 7);
  ib_set(m, IB_MAD_TRID_F, tid, true);
  ib_set(m, IB_MAD_ATTRID_F, attr);
  ib_set(m, IB_SA_MKEY_F, sm_key, true);
  ib_set(m, IB_SA_COMPMASK_F, mask, true);
  return m;
}
/// The record part of a request or an answer.
inline std::span<std::uint8_t> rec_of(Mad& m) { return std::span<std::uint8_t>(m).subspan(IB_SA_DATA_OFFS); }

inline void put16(std::span<std::uint8_t> b, std::size_t at, std::uint16_t v) {
  b[at] = static_cast<std::uint8_t>(v >> 8);
  b[at + 1] = static_cast<std::uint8_t>(v);
}
inline void put64(std::span<std::uint8_t> b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (56 - 8 * i));
}
inline void put_gid(std::span<std::uint8_t> b, std::size_t at, std::uint64_t prefix, std::uint64_t guid) {
  put64(b, at, prefix);
  put64(b, at + 8, guid);
}
inline std::uint64_t get_be(std::span<const std::uint8_t> b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | b[at + i];
  return v;
}

/// A decoded answer: header fields via libibmad, records cut by AttributeOffset.
struct Answer {
  std::vector<std::uint8_t> raw;
  SaOutcome outcome;
  bool sent() const { return !raw.empty(); }
  std::uint64_t field(MAD_FIELDS f, bool wide = false) const { return ib_get(raw, f, wide); }
  std::uint16_t status() const { return static_cast<std::uint16_t>(field(IB_MAD_STATUS_F)); }
  std::uint8_t method() const {
    return static_cast<std::uint8_t>(field(IB_MAD_METHOD_F) | (field(IB_MAD_RESPONSE_F) << 7));
  }
  std::size_t attr_offset() const { return field(IB_SA_ATTROFFS_F); }
  /// Records: (length - 56) / (AttributeOffset * 8), as saquery counts them.
  std::size_t count() const {
    const std::size_t stride = attr_offset() * 8;
    return stride == 0 ? 0 : (raw.size() - IB_SA_DATA_OFFS) / stride;
  }
  std::span<const std::uint8_t> record(std::size_t i) const {
    return std::span<const std::uint8_t>(raw).subspan(IB_SA_DATA_OFFS + i * attr_offset() * 8);
  }
};

inline Answer ask(const SaSnapshot& snap, SaState& state, const Mad& m, Lid from_lid = 3, std::int64_t now = 1000,
                  std::size_t len = 256) {
  Answer a;
  mad::MadAddress from;
  from.lid = from_lid;
  from.qpn = 1;
  a.raw = answer_mad(snap, state, std::span<const std::uint8_t>(m.data(), len), from, now, a.outcome);
  return a;
}

}  // namespace smd::sa::testing
