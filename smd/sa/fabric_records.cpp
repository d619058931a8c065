// Fabric record handlers. A request that names a LID (ComponentMask bit 0, the first field of every one of
// these records) is answered from that LID's node only; the rest enumerate the fabric.
#include "smd/sa/fabric_records.h"

#include <algorithm>

#include "mad/codec/bits.h"
#include "mad/sa/link_record.h"
#include "mad/sa/node_record.h"
#include "mad/sa/port_info_record.h"
#include "mad/sa/table_records.h"
#include "smd/sa/candidate_nodes.h"
#include "smd/sa/partition_rules.h"

namespace smd::sa {

using namespace mad::sa;
namespace bits = mad::bits;

namespace {

std::uint32_t limit(const SaSnapshot& s) { return s.settings.max_records; }

/// IBA 15.2.5 (OpenSM osm_sa_node_record.c, osm_sa_portinfo_record.c): a node's or port's record is shown
/// only to requesters that share a partition with it. A switch is judged by its port 0.
bool visible(const SaFabric& f, const SaQuery& q, const std::vector<PKey>& req, NodeIndex n, PortNum p) {
  if (q.trusted) return true;
  const Node& node = f.topo().node(n);
  const PortNum endport = node.is_switch() ? 0 : p;
  if (endport >= node.ports.size()) return false;
  return visible_to(req, f.pkeys(node.ports[endport].guid), false);
}

}  // namespace

SaAnswer answer_node_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  RecordCollector out(kNodeRecordLayout, q, limit(snap));
  const std::vector<PKey>& req = f.requester_pkeys(q.requester_lid);
  return collect_per_node(f, q, out, [&](NodeIndex n) {
    const Node& node = f.topo().node(n);
    const smd::NodeRecord& rec = f.observed().nodes[n];
    for (PortNum p = node.is_switch() ? 0 : 1; p <= (node.is_switch() ? 0 : node.num_ports) && !out.done(); ++p) {
      const Lid lid = f.record_lid(n, p);
      if (lid == 0 || !visible(f, q, req, n, p)) continue;
      mad::sa::NodeRecord r;
      r.lid = lid;
      mad::NodeInfo ni = rec.node_info;
      ni.port_guid = node.ports[p].guid;
      // A CA port's record names that port; a switch's record is the one its LID (port 0) answers with.
      ni.local_port_num = static_cast<std::uint8_t>(p);
      ni.encode(r.node_info);
      const std::size_t len = std::min(node.description.size(), r.description.size());
      std::copy_n(node.description.begin(), len, r.description.begin());
      r.encode(out.slot());
      out.offer();
    }
  });
}

SaAnswer answer_port_info_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  // CapabilityMask "match" option (IBA 1.2.1, C15-0.2.?): the bits requested must all be set.
  SaQuery plain = q;
  const std::uint8_t options = q.record[3];
  // Two spellings of "every requested CapabilityMask bit set": IBA 1.3's Options bit 7 (6 for
  // CapabilityMask2), and OpenSM's older AttributeModifier bit 31, which saquery -s and srp_daemon send.
  const bool attr_mod_match = (q.header.attr_mod & 0x80000000u) != 0;
  const bool cap_match = (q.mask() & pir_mask::kCapabilityMask) &&
                         (attr_mod_match || ((q.mask() & pir_mask::kOptions) && (options & kPirOptionCapMaskMatch)));
  const bool cap2_match =
      (q.mask() & pir_mask::kOptions) && (options & kPirOptionCapMask2Match) && (q.mask() & pir_mask::kCapabilityMask2);
  plain.header.comp_mask &= ~pir_mask::kOptions;
  if (cap_match) plain.header.comp_mask &= ~pir_mask::kCapabilityMask;
  if (cap2_match) plain.header.comp_mask &= ~pir_mask::kCapabilityMask2;
  const std::uint32_t want_cap = bits::get32(q.record.data(), 4 + 20);
  const std::uint16_t want_cap2 = bits::get16(q.record.data(), 4 + 60);
  const bool one_port = (q.mask() & pir_mask::kPortNum) != 0;
  const unsigned want_port = q.record[2];

  RecordCollector out(kPortInfoRecordLayout, plain, limit(snap));
  const std::vector<PKey>& req = f.requester_pkeys(q.requester_lid);
  return collect_per_node(f, q, out, [&](NodeIndex n) {
    const Node& node = f.topo().node(n);
    for (PortNum p = 0; p <= node.num_ports && !out.done(); ++p) {
      if (one_port && want_port != p) continue;
      if (!visible(f, q, req, n, p)) continue;
      const mad::PortInfo* pi = f.port_info(n, p);
      if (!pi) continue;
      const Lid lid = f.record_lid(n, p);
      if (lid == 0) continue;
      if (cap_match && (pi->capability_mask & want_cap) != want_cap) continue;
      if (cap2_match && (pi->capability_mask2 & want_cap2) != want_cap2) continue;
      PortInfoRecord r;
      r.lid = lid;
      r.port_num = static_cast<std::uint8_t>(p);
      mad::PortInfo shown = *pi;
      if (!q.trusted) shown.m_key = 0;
      shown.encode(r.port_info);
      r.encode(out.slot());
      out.offer();
    }
  });
}

SaAnswer answer_link_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  RecordCollector out(kLinkRecordLayout, q, limit(snap));
  return collect_per_node(f, q, out, [&](NodeIndex n) {
    const Node& node = f.topo().node(n);
    for (PortNum p = 1; p <= node.num_ports && !out.done(); ++p) {
      const Port& port = node.ports[p];
      if (!port.connected()) continue;
      const Lid from = f.record_lid(n, p);
      const Lid to = f.record_lid(port.peer, port.peer_port);
      if (from == 0 || to == 0) continue;
      mad::sa::LinkRecord r{from, static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(port.peer_port), to};
      r.encode(out.slot());
      out.offer();
    }
  });
}

SaAnswer answer_switch_info_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  RecordCollector out(kSwitchInfoRecord.layout, q, limit(snap));
  return collect_per_node(f, q, out, [&](NodeIndex n) {
    const auto& si = f.observed().nodes[n].switch_info;
    const Lid lid = f.record_lid(n, 0);
    if (!si || lid == 0 || !f.topo().node(n).is_switch()) return;
    TableRecord r;
    r.lid = lid;
    mad::SmpData bytes{};
    si->encode(bytes);
    std::copy_n(bytes.begin(), r.payload.size(), r.payload.begin());
    r.encode(kSwitchInfoRecord, out.slot());
    out.offer();
  });
}

SaAnswer answer_lft_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  RecordCollector out(kLftRecord.layout, q, limit(snap));
  const bool one_block = q.mask() & 2u;
  const unsigned want_block = bits::get16(q.record.data(), 2);
  return collect_per_node(f, q, out, [&](NodeIndex n) {
    if (!f.topo().node(n).is_switch() || n >= f.tables().lft.size()) return;
    const Lft& lft = f.tables().lft[n];
    const Lid lid = f.record_lid(n, 0);
    if (lid == 0 || lft.empty()) return;
    for (unsigned b = one_block ? want_block : 0; b < lft.num_blocks() && !out.done(); ++b) {
      TableRecord r;
      r.lid = lid;
      r.key[0] = b;
      const auto block = lft.block(b);
      std::copy(block.begin(), block.end(), r.payload.begin());
      r.encode(kLftRecord, out.slot());
      out.offer();
      if (one_block) break;
    }
  });
}

SaAnswer answer_sm_info_records(const SaSnapshot& snap, const SaQuery& q) {
  RecordCollector out(kSmInfoRecord.layout, q, limit(snap));
  for (const SmEntry& sm : snap.sms) {
    if (sm.lid == 0) continue;
    TableRecord r;
    r.lid = sm.lid;
    bits::put64(r.payload.data(), 0, sm.guid);
    bits::put64(r.payload.data(), 8, q.trusted ? sm.sm_key : 0);
    bits::put32(r.payload.data(), 16, sm.act_count);
    bits::put_bits(r.payload.data(), 20, 0, 4, sm.priority);
    bits::put_bits(r.payload.data(), 20, 4, 4, sm.state);
    r.encode(kSmInfoRecord, out.slot());
    if (out.offer() && out.done()) break;
  }
  return std::move(out).finish();
}

}  // namespace smd::sa
