#include "smd/program/qos_plan.h"

#include <algorithm>
#include <utility>

#include "mad/codec/port_info.h"
#include "mad/codec/sl2vl_table.h"
#include "mad/codec/switch_info.h"
#include "smd/program/port_plan.h"

namespace smd {

namespace {

TableWrite sl2vl_set(const SweepFabric& fabric, NodeIndex n, PortNum out, std::uint32_t mod, const Sl2Vl& table) {
  TableWrite w = make_set(n, out, fabric.topo().node(n).guid, fabric.port_path(n, out), mad::attr::kSlToVlTable, mod,
                          EchoRule::kSl2Vl);
  mad::Sl2VlTable t;
  t.vl = table;
  t.encode(w.request.data);
  return w;
}

// Every (in, out) pair of a switch's SL2VL tables, in (out, in) order.
std::vector<std::pair<PortNum, PortNum>> switch_pairs(const SweepFabric& fabric, NodeIndex n) {
  const Node& node = fabric.topo().node(n);
  std::vector<std::pair<PortNum, PortNum>> pairs;
  const mad::SwitchInfo* si = fabric.switch_info(n);
  if (si != nullptr && si->enhanced_port0) pairs.emplace_back(0, 0);
  for (PortNum out = 1; out <= node.num_ports; ++out) {
    // A port whose PortInfo was never read is left out: discovery named it.
    if (fabric.port_info(n, out) == nullptr) continue;
    for (PortNum in = 0; in <= node.num_ports; ++in) pairs.emplace_back(in, out);
  }
  return pairs;
}

void plan_switch_sl2vl(const SweepFabric& fabric, NodeIndex n, const Sl2VlLookup& want, const AppliedQos& applied,
                       unsigned& skipped, std::vector<TableWrite>& out) {
  const Node& node = fabric.topo().node(n);
  const auto pairs = switch_pairs(fabric, n);
  std::vector<std::pair<PortNum, PortNum>> differ;
  for (const auto& [in, o] : pairs) {
    const AppliedPortQos* acked = applied.port(node.guid, o);
    if (acked != nullptr && acked->sl2vl_is(in, want.table(n, in, o))) {
      ++skipped;
    } else {
      differ.emplace_back(in, o);
    }
  }
  if (differ.empty()) return;
  const mad::SwitchInfo* si = fabric.switch_info(n);
  const bool optimized = si != nullptr && si->optimized_sl_to_vl_mapping_programming != 0;
  const bool external_only = std::none_of(differ.begin(), differ.end(), [](const auto& p) { return p.second == 0; });
  if (optimized && external_only) {
    const Sl2Vl first = want.table(n, differ.front().first, differ.front().second);
    const bool uniform = std::all_of(pairs.begin(), pairs.end(), [&](const auto& p) {
      return p.second == 0 || want.table(n, p.first, p.second) == first;
    });
    if (uniform) {
      // One Set for every external (in, out): the recorder marks them all acknowledged.
      out.push_back(sl2vl_set(fabric, n, 0, mad::kSl2VlAllInputs | mad::kSl2VlAllOutputs, first));
      return;
    }
  }
  for (const auto& [in, o] : differ) {
    out.push_back(sl2vl_set(fabric, n, o, mad::Sl2VlTable::switch_attr_mod(in, o), want.table(n, in, o)));
  }
}

}  // namespace

std::vector<TableWrite> plan_sl2vl_writes(const SweepFabric& fabric, const Sl2VlLookup& want, const AppliedQos& applied,
                                          unsigned& skipped) {
  std::vector<TableWrite> out;
  const Topology& topo = fabric.topo();
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      plan_switch_sl2vl(fabric, n, want, applied, skipped, out);
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const mad::PortInfo* pi = fabric.port_info(n, p);
      // OpenSM leaves a port without IsSLMappingSupported alone: its SMA would refuse the Set.
      if (pi == nullptr || (pi->capability_mask & kIsSlMappingSupported) == 0) continue;
      const Sl2Vl table = want.table(n, 0, p);
      const AppliedPortQos* acked = applied.port(node.guid, p);
      if (acked != nullptr && acked->sl2vl_is(0, table)) {
        ++skipped;
        continue;
      }
      out.push_back(sl2vl_set(fabric, n, p, 0, table));
    }
  }
  return out;
}

std::vector<std::pair<mad::VlArbBlock, mad::VlArbBlockData>> vlarb_blocks(const PortVlArb& want) {
  std::vector<std::pair<mad::VlArbBlock, mad::VlArbBlockData>> out;
  for (const bool high : {false, true}) {
    const std::vector<VlArbEntry>& table = high ? want.high : want.low;
    for (unsigned half = 0; half < 2 && half * mad::kVlArbBlockSize < table.size(); ++half) {
      mad::VlArbBlockData block;
      for (std::size_t i = 0; i < mad::kVlArbBlockSize; ++i) {
        const std::size_t e = half * mad::kVlArbBlockSize + i;
        if (e < table.size()) block.entries[i] = {table[e].vl, table[e].weight};
      }
      out.emplace_back(mad::VlArbBlockData::block_of(high, half), block);
    }
  }
  return out;
}

std::vector<TableWrite> plan_vlarb_writes(const SweepFabric& fabric, const std::vector<PortVlArb>& want,
                                          const AppliedQos& applied, unsigned& skipped) {
  std::vector<TableWrite> out;
  const Topology& topo = fabric.topo();
  for (const PortVlArb& pv : want) {
    if (pv.node >= topo.size()) continue;
    const Node& node = topo.node(pv.node);
    const AppliedPortQos* acked = applied.port(node.guid, pv.port);
    // As OpenSM: a switch names the port in the modifier, a CA answers for the port the SMP entered by.
    const PortNum mod_port = node.is_switch() ? pv.port : 0;
    for (const auto& [b, data] : vlarb_blocks(pv)) {
      if (acked != nullptr && acked->vlarb_is(b, data)) {
        ++skipped;
        continue;
      }
      data.encode(add_set(out, pv.node, pv.port, node.guid, fabric.port_path(pv.node, pv.port), mad::attr::kVlArbTable,
                          mad::VlArbBlockData::attr_mod(b, mod_port), EchoRule::kPayload)
                      .request.data);
    }
  }
  return out;
}

std::vector<TableWrite> plan_vl_high_limit(const SweepFabric& fabric, const std::vector<PortVlArb>& want,
                                           unsigned& skipped) {
  std::vector<TableWrite> out;
  for (const PortVlArb& pv : want) {
    const mad::PortInfo* now = fabric.port_info(pv.node, pv.port);
    if (now == nullptr) continue;
    if (now->vl_high_limit == pv.high_limit) {
      ++skipped;
      continue;
    }
    mad::PortInfo pi = nop_base(*now);
    pi.vl_high_limit = pv.high_limit;
    out.push_back(port_info_set(fabric, pv.node, pv.port, pi, EchoRule::kPortVlHighLimit));
  }
  return out;
}

std::vector<std::vector<VlArbCaps>> vlarb_caps(const SweepFabric& fabric) {
  const Topology& topo = fabric.topo();
  std::vector<std::vector<VlArbCaps>> caps(topo.size());
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    caps[n].resize(static_cast<std::size_t>(node.num_ports) + 1);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      if (const mad::PortInfo* pi = fabric.port_info(n, p)) {
        caps[n][p] = {pi->vl_cap, pi->vl_arbitration_high_cap, pi->vl_arbitration_low_cap};
      }
    }
  }
  return caps;
}

std::vector<bool> enhanced_port0(const SweepFabric& fabric) {
  const Topology& topo = fabric.topo();
  std::vector<bool> out(topo.size(), false);
  for (NodeIndex s : topo.switches()) {
    const mad::SwitchInfo* si = fabric.switch_info(s);
    out[s] = si != nullptr && si->enhanced_port0;
  }
  return out;
}

}  // namespace smd
