#include "smd/program/mft_plan.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "mad/codec/mft_block.h"

namespace smd {

namespace {

// The 32 masks of (block, position) a switch should hold, from its wanted entries.
mad::MftBlock wanted_block(const std::map<Lid, McastPortMask>* entries, unsigned blk, unsigned position) {
  mad::MftBlock b;
  if (entries == nullptr) return b;
  const Lid first = mad::MftBlock::first_mlid(blk);
  for (auto it = entries->lower_bound(first); it != entries->end() && it->first < first + mad::kMftBlockSize; ++it) {
    b.masks[it->first - first] = it->second.words[position];
  }
  return b;
}

bool all_zero(const mad::MftBlock& b) {
  return std::all_of(b.masks.begin(), b.masks.end(), [](std::uint16_t m) { return m == 0; });
}

}  // namespace

Lid mft_top_for(int max_block) {
  if (max_block < 0) return 0xBFFF;
  return static_cast<Lid>(mad::kMulticastLidBase + mad::kMftBlockSize * (static_cast<unsigned>(max_block) + 1) - 1);
}

namespace {

using SwitchEntries = std::map<Lid, McastPortMask>;

// The highest MFT block any switch uses, or the block of the highest MLID in use (-1: none). A switch
// seen for the first time is written up to it, clearing what another SM may have left there.
int highest_block(const McastTables& want, const std::unordered_map<Guid, SwitchEntries>& by_switch) {
  int max_block =
      want.highest_mlid >= mad::kMulticastLidBase ? static_cast<int>(mad::MftBlock::block_of(want.highest_mlid)) : -1;
  for (const auto& [guid, entries] : by_switch) {
    if (!entries.empty()) max_block = std::max<int>(max_block, static_cast<int>(mad::MftBlock::block_of(entries.rbegin()->first)));
  }
  return max_block;
}

// Entries at or above MulticastFDBCap (every entry when the switch reported no SwitchInfo) are refused
// by name and dropped from `entries`; the rest is still written.
void refuse_beyond_cap(const Node& sw, const mad::SwitchInfo* held, unsigned cap, SwitchEntries* entries,
                       MftPlan& plan) {
  if (entries == nullptr || entries->empty() ||
      static_cast<unsigned>(entries->rbegin()->first - mad::kMulticastLidBase) < cap) {
    return;
  }
  const Lid highest = entries->rbegin()->first;
  plan.problems.push_back(
      {ProblemCode::kCapacity, sw.guid, mad::DrPath(sw.dr_path).to_string(), "MulticastForwardingTable",
       held == nullptr ? "no SwitchInfo read; no MLID written"
                       : "MLID " + format_mlid(highest) + " exceeds MulticastFDBCap " + std::to_string(cap) +
                             "; MLIDs from " + format_mlid(static_cast<Lid>(mad::kMulticastLidBase + cap)) +
                             " up not written"});
  entries->erase(entries->lower_bound(static_cast<Lid>(std::min<unsigned>(mad::kMulticastLidBase + cap, 0xFFFF))),
                 entries->end());
}

// The last block to compare on one switch: the fabric's highest, or a higher one the switch acknowledged
// entries in (they are cleared), never beyond MulticastFDBCap.
int last_block_of(int fabric_max_block, const AppliedMftSwitch* acked, unsigned cap) {
  int last_block = fabric_max_block;
  if (acked != nullptr) {
    for (const auto& [mod, block] : acked->blocks) {
      if (!all_zero(block)) last_block = std::max<int>(last_block, static_cast<int>(mad::MftBlock::block_of_mod(mod)));
    }
  }
  return std::min<int>(last_block, static_cast<int>((cap + mad::kMftBlockSize - 1) / mad::kMftBlockSize) - 1);
}

// The (block, position) Sets of one switch whose wanted masks are not known to be held.
void plan_blocks(NodeIndex s, const Node& sw, const SwitchEntries* entries, const AppliedMftSwitch* acked,
                 int last_block, MftPlan& plan) {
  const mad::DrPath path(sw.dr_path);
  const unsigned positions = sw.num_ports / mad::kMftPortsPerMask + 1;
  for (int blk = 0; blk <= last_block; ++blk) {
    for (unsigned pos = 0; pos < positions; ++pos) {
      const mad::MftBlock data = wanted_block(entries, static_cast<unsigned>(blk), pos);
      const mad::MftBlock* had = acked == nullptr ? nullptr : acked->block(static_cast<unsigned>(blk), pos);
      if (had != nullptr && *had == data) {
        ++plan.blocks_skipped;
        continue;
      }
      data.encode(add_set(plan.writes, s, 0, sw.guid, path, mad::attr::kMulticastForwardingTable,
                          mad::MftBlock::attr_mod(static_cast<unsigned>(blk), pos), EchoRule::kPayload)
                      .request.data);
    }
  }
}

// The MulticastFDBTop Set of one switch when its top (acknowledged, else as discovery read it) is not
// the wanted one; a top read right and never acknowledged is believed without a write.
void plan_top(NodeIndex s, const Node& sw, const mad::SwitchInfo& held, const SwitchEntries* entries,
              const AppliedMftSwitch* acked, MftPlan& plan) {
  const int max_block = entries == nullptr || entries->empty()
                            ? -1
                            : static_cast<int>(mad::MftBlock::block_of(entries->rbegin()->first));
  const Lid want_top = mft_top_for(max_block);
  const bool top_known = acked != nullptr && acked->top.has_value();
  const Lid current = top_known ? *acked->top : held.multicast_fdb_top;
  if (current != want_top) {
    mad::SwitchInfo si = held;
    si.multicast_fdb_top = want_top;
    si.port_state_change = false;  // writing 1 would clear it: that is the PortStateChange phase's business
    si.encode(add_set(plan.writes, s, 0, sw.guid, mad::DrPath(sw.dr_path), mad::attr::kSwitchInfo, 0,
                      EchoRule::kMulticastFdbTop)
                  .request.data);
    ++plan.top_updates;
  } else if (!top_known) {
    plan.tops_confirmed.emplace_back(sw.guid, current);
  }
}

}  // namespace

MftPlan plan_mft(const SweepFabric& fabric, const McastTables& want, const AppliedMft& applied) {
  MftPlan plan;
  const Topology& topo = fabric.topo();
  auto by_switch = mft_by_switch(want);
  const int fabric_max_block = highest_block(want, by_switch);
  for (NodeIndex s : topo.switches()) {
    const Node& sw = topo.node(s);
    auto found = by_switch.find(sw.guid);
    SwitchEntries* entries = found == by_switch.end() ? nullptr : &found->second;
    const mad::SwitchInfo* held = fabric.switch_info(s);
    const unsigned cap = held == nullptr ? 0 : held->multicast_fdb_cap;
    refuse_beyond_cap(sw, held, cap, entries, plan);
    if (held == nullptr || cap == 0) continue;
    ++plan.switches;
    const mad::PortInfo* port0 = fabric.port_info(s, 0);
    const bool top_supported =
        port0 != nullptr && (port0->capability_mask & mad::capmask::kIsMulticastFdbTopSupported) != 0;
    const AppliedMftSwitch* acked = applied.mft(sw.guid);
    if (top_supported && acked != nullptr && acked->top && *acked->top != held->multicast_fdb_top) {
      plan.stale.push_back(sw.guid);
      acked = nullptr;
    }
    plan_blocks(s, sw, entries, acked, last_block_of(fabric_max_block, acked, cap), plan);
    if (top_supported) plan_top(s, sw, *held, entries, acked, plan);
  }
  return plan;
}

}  // namespace smd
