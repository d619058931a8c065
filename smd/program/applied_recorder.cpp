#include "smd/program/applied_recorder.h"

#include <algorithm>

#include "mad/codec/mft_block.h"
#include "mad/codec/pkey_table.h"
#include "mad/codec/port_info.h"
#include "mad/codec/sl2vl_table.h"
#include "mad/codec/switch_info.h"
#include "mad/codec/vlarb_table.h"

namespace smd {

namespace {

mad::VlArbBlock vlarb_block_of(const TableWrite& w) { return static_cast<mad::VlArbBlock>(w.request.attr_mod >> 16); }

}  // namespace

template <typename F>
void AppliedRecorder::for_each_sl2vl_pair(const TableWrite& w, F f) const {
  const std::uint32_t mod = w.request.attr_mod;
  if ((mod & (mad::kSl2VlAllInputs | mad::kSl2VlAllOutputs)) == 0) {
    f(static_cast<PortNum>((mod >> 8) & 0xffu), w.port);
    return;
  }
  const Node& node = fabric_.topo().node(w.node);
  for (PortNum out = 1; out <= node.num_ports; ++out) {
    for (PortNum in = 0; in <= node.num_ports; ++in) f(in, out);
  }
}

void AppliedRecorder::answered(const TableWrite& w, const mad::SmpData& reply, bool believed) {
  switch (w.request.attr_id) {
    case mad::attr::kSwitchInfo:
      if (!believed) return;
      confirm_top(w.echo, w.guid, w.echo == EchoRule::kLinearFdbTop ? mad::SwitchInfo::decode(reply).linear_fdb_top
                                                                      : mad::SwitchInfo::decode(reply).multicast_fdb_top);
      fabric_.acknowledge_switch(w.node, mad::SwitchInfo::decode(reply));
      return;
    case mad::attr::kPortInfo: {
      const auto pi = mad::PortInfo::decode(reply);
      fabric_.acknowledge_port(w.node, w.port, pi);
      if (w.echo == EchoRule::kPortPartitionEnforcement && stores_.pkeys != nullptr) {
        stores_.pkeys->record_enforcement(w.guid, w.port, pi.partition_enforcement_inbound,
                                          pi.partition_enforcement_outbound);
      }
      return;
    }
    default:
      if (believed) {
        record_table(w);
      } else {
        unanswered(w);
      }
      return;
  }
}

void AppliedRecorder::unanswered(const TableWrite& w) {
  if (w.request.attr_id == mad::attr::kSwitchInfo || w.request.attr_id == mad::attr::kPortInfo) return;
  forget_part(w);
  ++failed_[w.request.attr_id];
}

unsigned AppliedRecorder::failed(std::uint16_t attr_id) const {
  auto it = failed_.find(attr_id);
  return it == failed_.end() ? 0 : it->second;
}

void AppliedRecorder::confirm_top(EchoRule top_rule, Guid switch_guid, Lid top) {
  if (top_rule == EchoRule::kLinearFdbTop && stores_.lft != nullptr) stores_.lft->record_lft_top(switch_guid, top);
  if (top_rule == EchoRule::kMulticastFdbTop && stores_.mft != nullptr) stores_.mft->record_top(switch_guid, top);
}

void AppliedRecorder::forget_table(EchoRule top_rule, Guid switch_guid) {
  if (top_rule == EchoRule::kLinearFdbTop && stores_.lft != nullptr) stores_.lft->forget(switch_guid);
  if (top_rule == EchoRule::kMulticastFdbTop && stores_.mft != nullptr) stores_.mft->forget(switch_guid);
}

void AppliedRecorder::record_table(const TableWrite& w) {
  const std::uint32_t mod = w.request.attr_mod;
  switch (w.request.attr_id) {
    case mad::attr::kLinearForwardingTable:
      if (stores_.lft != nullptr) {
        AppliedLft::Block block;
        std::copy_n(w.request.data.begin(), block.size(), block.begin());
        stores_.lft->record_lft_block(w.guid, mod, block);
      }
      return;
    case mad::attr::kMulticastForwardingTable:
      if (stores_.mft != nullptr) {
        stores_.mft->record_block(w.guid, mad::MftBlock::block_of_mod(mod), mad::MftBlock::position_of_mod(mod),
                                  mad::MftBlock::decode(w.request.data));
      }
      return;
    case mad::attr::kPKeyTable:
      if (stores_.pkeys != nullptr) {
        stores_.pkeys->record_block(w.guid, w.port, mod & 0xffffu, mad::PKeyBlock::decode(w.request.data).entries);
      }
      return;
    case mad::attr::kSlToVlTable:
      if (stores_.qos != nullptr) {
        const Sl2Vl table = mad::Sl2VlTable::decode(w.request.data).vl;
        for_each_sl2vl_pair(w, [&](PortNum in, PortNum out) { stores_.qos->record_sl2vl(w.guid, in, out, table); });
      }
      return;
    case mad::attr::kVlArbTable:
      if (stores_.qos != nullptr) {
        stores_.qos->record_vlarb(w.guid, w.port, vlarb_block_of(w), mad::VlArbBlockData::decode(w.request.data));
      }
      return;
    default: return;
  }
}

void AppliedRecorder::forget_part(const TableWrite& w) {
  const std::uint32_t mod = w.request.attr_mod;
  switch (w.request.attr_id) {
    case mad::attr::kLinearForwardingTable:
      if (stores_.lft != nullptr) stores_.lft->forget_lft_block(w.guid, mod);
      return;
    case mad::attr::kMulticastForwardingTable:
      if (stores_.mft != nullptr) {
        stores_.mft->forget_block(w.guid, mad::MftBlock::block_of_mod(mod), mad::MftBlock::position_of_mod(mod));
      }
      return;
    case mad::attr::kPKeyTable:
      if (stores_.pkeys != nullptr) stores_.pkeys->forget_block(w.guid, w.port, mod & 0xffffu);
      return;
    case mad::attr::kSlToVlTable:
      if (stores_.qos != nullptr) {
        for_each_sl2vl_pair(w, [&](PortNum in, PortNum out) { stores_.qos->forget_sl2vl(w.guid, in, out); });
      }
      return;
    case mad::attr::kVlArbTable:
      if (stores_.qos != nullptr) stores_.qos->forget_vlarb(w.guid, w.port, vlarb_block_of(w));
      return;
    default: return;
  }
}

}  // namespace smd
