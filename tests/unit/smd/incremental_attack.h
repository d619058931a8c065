// What the incremental-sweep attack tests share (incremental_attack_*_test.cpp): building a rig, the
// comparison of an incremental result with a full discovery of the same fake fabric (same nodes, same
// cables by GUID and port, every directed path reaching its node by NodeInfo), the outcome rule (ok and
// equal, or a fallback whose reason names a node GUID and a DR path), and the re-cabling moves.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/unit/smd/fabric_witness.h"
#include "smd/sweep/incremental_discovery.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::test {

// A rig on the heap (it holds references into itself), each SMP tried once more after a loss. Tests
// re-cable rig.topo (move_cable) between sweeps: the fake fabric answers for it as it is then.
std::unique_ptr<SweepRig> rig_of(Result<Topology> t, unsigned retries = 1);

/// "0x...[p]-0x...[q]": a cable for failure messages.
std::string str(const Cable& c);

// Where a directed path leads in the model (kNoNode: off the modelled cables).
NodeIndex model_walk(const Topology& t, const std::vector<std::uint8_t>& hops);

// Everything wrong with `got` compared to a full discovery of the fake fabric now ("" when nothing).
// Loss must be off.
std::string compare_with_full(SweepRig& rig, const ObservedFabric& got);

// A fallback must say where: a node GUID and a directed path.
void expect_named_fallback(const IncrementalDiscovery& r);

// Either ok and equal to a full discovery, or a fallback naming GUID and path.
void expect_correct(SweepRig& rig, const IncrementalDiscovery& r);

// Clear SwitchInfo:PortStateChange everywhere, as the SM does at the end of each sweep.
void clear_psc(SweepRig& rig);

/// Take the cable at port `p` of node `n` out of the model `t` (both ends).
void disconnect(Topology& t, NodeIndex n, PortNum p);

// Pull the cable at a.pa out of its far end and plug it into c.pc (free): both old ends go Down, the new
// link trains to Init, PortStateChange on every switch involved (as a real re-cabling would).
void move_cable(SweepRig& rig, NodeIndex a, PortNum pa, NodeIndex c, PortNum pc);

// a.pa <-> b.pb and c.pc <-> d.pd become a.pa <-> d.pd and c.pc <-> b.pb.
void swap_far_ends(SweepRig& rig, NodeIndex a, PortNum pa, NodeIndex c, PortNum pc);

/// The leaf the SM's own port is cabled to.
inline NodeIndex sm_leaf(const Topology& t) { return t.node(t.sm_node).ports[t.sm_port].peer; }

/// The node whose NodeDescription is `name` (a test failure and kNoNode when none).
NodeIndex by_name(const Topology& t, const std::string& name);

// First port of switch `s` cabled to another switch (from port `from` on).
PortNum switch_port(const Topology& t, NodeIndex s, PortNum from = 1);

}  // namespace smd::test
