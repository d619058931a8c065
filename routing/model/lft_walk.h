// The one LFT walker: how a packet for one LID crosses the switches by their Linear Forwarding Tables
// (IBA 14.2.5.10, 18.2.4.3). Every follower of LFTs (the verifier, minimal repair, the flow tracer under
// the quality report and the RoCE comparison, `smctl route`) takes the hop rule from here, so "delivered",
// "dropped" and "loop" mean the same thing in all of them.
//
// The hop rule, at switch s whose LFT entry for the LID is p, towards the destination (sw, port) of
// LidTarget (for a CA LID: the switch port cabled to the CA port that owns the LID; for a switch LID:
// port 0 of that switch, the switch itself), the first rule that applies decides:
//   - p == kNoPort (0xFF, also what a table shorter than the LID reads as): dropped, no entry (kNoEntry);
//   - p > NumPorts(s): dropped, the port does not exist (kBadPort);
//   - (s, p) == (sw, port): delivered (kDelivered);
//   - p == 0: dropped, port 0 is the switch itself and the LID is not its own (kPortZero);
//   - p cabled to another switch: the packet goes on there (kForward);
//   - p uncabled (or cabled back to s itself, which SwitchGraph ignores): dropped on the floor (kUncabled);
//   - p cabled to a CA or router port that is not the destination: delivered to the wrong port (kWrongPort).
// A walk that needs more hops than there are switches has visited one of them twice; forwarding depends on
// (switch, LID) only, so it would go round forever: a loop (kLoop). A packet that leaves the destination's
// switch without being delivered can therefore only end dropped or in a loop, never delivered.
//
// Why the result is right: the rule reads nothing but the entry and the cable it names, as a switch does.
// Cost: lft_hop is O(1) (two or three array reads); walk_lft is at most num_switches() hops, no allocation,
// inlined into the caller's loop, because it is the innermost loop of every routing-quality figure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"

namespace smd {

/// What one LFT entry does to a packet (lft_hop), or how a walk ended (walk_lft: every value but kForward).
enum class LftHop : std::uint8_t {
  kForward,    ///< the entry leads to another switch: the walk goes on
  kDelivered,  ///< the entry is the destination's port
  kNoEntry,    ///< 0xFF: no route (a black hole)
  kBadPort,    ///< a port number above the switch's NumPorts
  kPortZero,   ///< port 0 at a switch that does not own the LID
  kUncabled,   ///< a port without a cable
  kWrongPort,  ///< a port cabled to a CA or router port that does not own the LID
  kLoop,       ///< walks only: more hops than switches
};

/// The hop rule (see the header comment) for entry `p` of switch `s` towards `dst`. Sets `next` to the
/// switch the packet reaches when the result is kForward, and leaves it alone otherwise. `s` must be a
/// switch of `graph`; `dst` is what port_target / lid_targets give: dst.port is 0 or a port facing a CA
/// or router, and dst.sw may be kNoSwitch (an unroutable LID: nothing is ever delivered).
inline LftHop lft_hop(const SwitchGraph& graph, SwitchIndex s, PortNum p, const LidTarget& dst, SwitchIndex& next) {
  if (p == kNoPort) return LftHop::kNoEntry;
  if (p > graph.num_ports(s)) return LftHop::kBadPort;
  // The common case first. It may come before the delivery test because the destination's port is
  // port 0 or leads to a CA or router, never to a switch; port 0 itself never leads anywhere.
  const SwitchIndex peer = graph.peer_switch(s, p);
  if (peer != kNoSwitch) {
    next = peer;
    return LftHop::kForward;
  }
  if (s == dst.sw && p == dst.port) return LftHop::kDelivered;
  if (p == 0) return LftHop::kPortZero;
  return graph.peer_node(s, p) == kNoNode ? LftHop::kUncabled : LftHop::kWrongPort;
}

/// Where a walk ended: `how` is kDelivered, kLoop or the reason of the drop; `at` is the switch of the
/// last hop and `port` its entry (kNoPort for kLoop).
struct LftWalkEnd {
  LftHop how = LftHop::kLoop;
  SwitchIndex at = kNoSwitch;
  PortNum port = kNoPort;

  bool delivered() const { return how == LftHop::kDelivered; }
};

/// Follow one LID from switch `from` (a switch of `graph`) towards `dst` by the hop rule.
/// `out_port(s)` returns switch s's LFT entry for the LID, in whatever layout the caller keeps its tables
/// (SwitchLfts below, a transposed row, a block matrix). `on_hop(s, p)` is called, in order, for every
/// port a packet leaves a switch by: each kForward hop, and the last hop when it ends kDelivered,
/// kUncabled or kWrongPort (the packet does leave by that port; it is lost or misdelivered beyond it).
/// A drop at the entry (kNoEntry, kBadPort, kPortZero) leaves by no port and calls nothing.
/// Cost: at most graph.num_switches() hops of O(1); no allocation.
template <class OutPort, class OnHop>
inline LftWalkEnd walk_lft(const SwitchGraph& graph, SwitchIndex from, const LidTarget& dst, OutPort&& out_port,
                           OnHop&& on_hop) {
  SwitchIndex s = from;
  for (std::size_t left = graph.num_switches(); left > 0; --left) {
    const PortNum p = out_port(s);
    SwitchIndex next = kNoSwitch;
    const LftHop hop = lft_hop(graph, s, p, dst, next);
    if (hop == LftHop::kForward) {
      on_hop(s, p);
      s = next;
      continue;
    }
    if (hop == LftHop::kDelivered || hop == LftHop::kUncabled || hop == LftHop::kWrongPort) on_hop(s, p);
    return LftWalkEnd{hop, s, p};
  }
  return LftWalkEnd{LftHop::kLoop, s, kNoPort};
}

/// Every switch's LFT as a raw array by switch index: the out-port lookup the walkers share (no bounds
/// object, no map: one load of {data, size} and one of the entry). It borrows the tables' storage, which
/// must outlive it and not be resized.
class SwitchLfts {
 public:
  SwitchLfts() = default;
  /// `lft[s]` is switch s's table; nullptr for a switch without one (every lookup reads kNoPort).
  explicit SwitchLfts(std::span<const Lft* const> lft);
  /// The tables of `tables` (indexed by NodeIndex) for the switches of `graph`; a switch whose NodeIndex
  /// is past tables.lft reads as having no table.
  SwitchLfts(const SwitchGraph& graph, const RoutingTables& tables);

  /// Entry of switch s for `lid`; kNoPort past the table's end.
  PortNum out_port(SwitchIndex s, Lid lid) const {
    const Row& row = rows_[s];
    return lid < row.size ? row.data[lid] : kNoPort;
  }
  /// The block matrix of LIDs [base, base + width) (width <= kLftBlockSize): out[s * kLftBlockSize + j] =
  /// out_port(s, base + j) for every switch s. Walkers that follow many LIDs from every switch read this
  /// L2-resident copy instead of striding through S tables once per LID. `out` holds one
  /// kLftBlockSize row per switch; columns past `width` are left as they are.
  void copy_block(std::size_t base, std::size_t width, PortNum* out) const;

 private:
  struct Row {
    const PortNum* data = nullptr;
    std::size_t size = 0;
  };
  std::vector<Row> rows_;
};

}  // namespace smd
