// What the fake switches' own LFTs deliver (FakeFabric::lft), walked hop by hop over the real cabling: the
// witness sweep tests judge a programmed fabric by, independent of the runner's own tables.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "tests/unit/smd/fake_fabric.h"
#include "routing/model/topology.h"

namespace smd::test {

/// Every LID the fake fabric's endports hold -> (node, port): a switch's port 0, every LID of a CA port's
/// LMC range.
inline std::map<Lid, std::pair<NodeIndex, PortNum>> lid_owners(const Topology& t, const FakeFabric& f) {
  std::map<Lid, std::pair<NodeIndex, PortNum>> owner;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (node.is_switch()) {
      owner[f.lid(n, 0)] = {n, 0};
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      for (unsigned l = 0; l < (1u << f.lmc(n, p)); ++l) owner[static_cast<Lid>(f.lid(n, p) + l)] = {n, p};
    }
  }
  return owner;
}

/// Every (switch, LID) pair: follow the fake switches' LFTs; the walk must end at the LID's owner. A cable
/// the fake fabric has taken down (FakeFabric::unlink) carries nothing.
inline void expect_routes_deliver(const Topology& t, const FakeFabric& f) {
  for (NodeIndex s : t.switches()) {
    for (const auto& [lid, dst] : lid_owners(t, f)) {
      NodeIndex here = s;
      bool delivered = false;
      for (unsigned hops = 0; hops <= t.switches().size(); ++hops) {
        const PortNum out = f.lft(here, lid);
        if (out == 0) {
          delivered = here == dst.first && dst.second == 0;
          break;
        }
        ASSERT_LE(out, t.node(here).num_ports) << "LID " << lid;
        const Port& port = t.node(here).ports[out];
        ASSERT_TRUE(port.connected()) << "LID " << lid << " sent out of an empty port";
        ASSERT_GE(f.state(here, out), 2) << "LID " << lid << " sent over a cable that is down";
        if (!t.node(port.peer).is_switch()) {
          delivered = port.peer == dst.first && port.peer_port == dst.second;
          break;
        }
        here = port.peer;
      }
      EXPECT_TRUE(delivered) << "switch " << t.node(s).description << " LID " << lid;
    }
  }
}

/// How many endport LIDs switch `sw`'s LFT sends out of `port`.
inline unsigned lids_sent_over(const Topology& t, const FakeFabric& f, NodeIndex sw, PortNum port) {
  unsigned n = 0;
  for (const auto& [lid, owner] : lid_owners(t, f)) n += f.lft(sw, lid) == port ? 1 : 0;
  return n;
}

}  // namespace smd::test
