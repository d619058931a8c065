// Multi-HCA hosts in the comparison: the hosts found in NodeDescriptions (rail_layout.h), the collectives
// NCCL puts on a rail-optimized fabric (rail_collectives.h), their times on a tiny rail fabric worked out by
// hand, and the RoCE plan of a rail fabric with a core (one AS per rail plane, cross-rail routes through
// the cores).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/roce/compare.h"
#include "routing/roce/rail_collectives.h"
#include "routing/roce/rail_layout.h"
#include "tests/unit/routing/roce/routed_fabric_test.h"

namespace smd::roce::roce_rail_test {
namespace {

TEST(RailLayout, HostsFromHostAndDeviceNames) {
  // Endpoint order as a routing engine might give it: rail by rail, devices out of natural order.
  const std::vector<std::string> names{"gpu-b mlx5_10", "gpu-a mlx5_2", "gpu-a mlx5_10",
                                       "gpu-b mlx5_2",  "gpu-a mlx5_0", "gpu-b mlx5_0"};
  const RailDetection d = detect_rail_layout(names);
  ASSERT_TRUE(d.layout.has_value()) << d.why_not;
  const RailLayout& l = *d.layout;
  EXPECT_EQ(l.rails, 3u);
  EXPECT_EQ(l.host_names, (std::vector<std::string>{"gpu-b", "gpu-a"}));
  // Rails in natural order: mlx5_0, mlx5_2, mlx5_10.
  EXPECT_EQ(l.hca, (std::vector<std::uint32_t>{5, 3, 0, 4, 1, 2}));
  EXPECT_EQ(l.host_of_endpoint, (std::vector<std::uint32_t>{0, 1, 1, 0, 1, 0}));
}

TEST(RailLayout, SingleHcaAndOddNamesAreNotRails) {
  // One HCA per host: what Linux reports on a single-HCA cluster; no layout and nothing to explain.
  const std::vector<std::string> single{"node1 mlx5_0", "node2 mlx5_0"};
  auto d = detect_rail_layout(single);
  EXPECT_FALSE(d.layout.has_value());
  EXPECT_TRUE(d.why_not.empty());
  const std::vector<std::string> plain{"host-0", "host-1"};
  d = detect_rail_layout(plain);
  EXPECT_FALSE(d.layout.has_value());
  EXPECT_TRUE(d.why_not.empty());
  const std::vector<std::string> uneven{"a mlx5_0", "a mlx5_1", "b mlx5_0"};
  d = detect_rail_layout(uneven);
  EXPECT_FALSE(d.layout.has_value());
  EXPECT_EQ(d.why_not, "host 'b' has 1 HCAs, host 'a' 2");
  const std::vector<std::string> mixed{"a mlx5_0", "a mlx5_1", "storage"};
  d = detect_rail_layout(mixed);
  EXPECT_EQ(d.why_not, "1 of 3 endpoint names are not \"<host> <device>\"");
  const std::vector<std::string> twice{"a mlx5_0", "a mlx5_0", "b mlx5_0", "b mlx5_1"};
  d = detect_rail_layout(twice);
  EXPECT_EQ(d.why_not, "host 'a' has two HCAs named 'mlx5_0'");
}

TEST(RailLayout, NaturalOrderAndSplit) {
  EXPECT_TRUE(natural_less("mlx5_2", "mlx5_10"));
  EXPECT_FALSE(natural_less("mlx5_10", "mlx5_2"));
  EXPECT_TRUE(natural_less("mlx5_02", "mlx5_3"));
  EXPECT_TRUE(natural_less("hca", "hca0"));
  EXPECT_FALSE(natural_less("mlx5_1", "mlx5_1"));
  auto s = split_host_device("dgx a17 mlx5_3");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->first, "dgx a17");
  EXPECT_EQ(s->second, "mlx5_3");
  EXPECT_FALSE(split_host_device("mlx5_3 ").has_value());
  EXPECT_FALSE(split_host_device(" mlx5_3").has_value());
}

TEST(RailLayout, JobsTakeWholeHosts) {
  const std::vector<std::string> names{"a mlx5_0", "a mlx5_1", "b mlx5_0", "b mlx5_1"};
  const RailLayout l = *detect_rail_layout(names).layout;
  const std::vector<std::uint32_t> whole{2, 3, 0, 1};
  EXPECT_EQ(job_hosts(l, whole).value(), (std::vector<std::uint32_t>{1, 0}));
  const std::vector<std::uint32_t> hosts{1, 0};
  EXPECT_EQ(host_ranks(l, hosts), whole);
  const std::vector<std::uint32_t> partial{0, 1, 2};
  auto p = job_hosts(l, partial);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            "host 'b' has 2 HCAs and the job holds 1 of them: on a multi-HCA fabric a job takes whole hosts");
}

// The tiny rail fabric: 2 units x 2 hosts x 2 rails, 2 spines, one cable per leaf-spine pair. Hosts
// h0, h1 in unit 0 (leaves leaf-su0-r0, leaf-su0-r1), h2, h3 in unit 1. A job of all 4 hosts has n = 8
// ranks (R = 2).
class RailCompare : public RoutedFabricTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(route(make_rail_optimized(RailSpec{2, 2, 2, 2, 1, 0}), "ftree"));
    auto d = compare_rail_layout(topo, lids, tables);
    ASSERT_TRUE(d.layout.has_value()) << d.why_not;
    layout = *d.layout;
    for (const std::uint32_t h : compare_endpoints(topo, lids, tables, *plan)) {
      names.push_back(topo.node(plan->hosts()[h].ca).description);
    }
  }

  /// Host h of the job in netfile order (host-0 .. host-3), whatever order the engine found them in.
  std::vector<std::uint32_t> hosts_in_name_order() const {
    std::vector<std::uint32_t> out;
    for (const char* want : {"host-0", "host-1", "host-2", "host-3"}) {
      for (std::uint32_t h = 0; h < layout.hosts(); ++h) {
        if (layout.host_names[h] == want) out.push_back(h);
      }
    }
    return out;
  }

  Result<Comparison> compare(const char* collectives) const {
    CompareOptions o;
    o.patterns.seeds = 1;
    o.patterns.max_shifts = 1;
    o.patterns.all_to_all = false;
    o.collectives = parse_collectives(collectives).value();
    o.rails = layout;
    o.jobs = {Job{"all", host_ranks(layout, hosts_in_name_order())}};
    return compare_schemes(topo, lids, tables, *plan, o);
  }

  RailLayout layout;
  std::vector<std::string> names;  ///< endpoint e's NodeDescription
};

const CollectiveFigures& scheme(const CollectiveResult& c, const std::string& name) {
  for (const auto& s : c.schemes) {
    if (s.name == name) return s;
  }
  ADD_FAILURE() << name << " missing";
  static const CollectiveFigures kNone;
  return kNone;
}

/// "host-1" of "host-1 mlx5_0", and the device.
std::string host_of(const std::string& name) { return split_host_device(name)->first; }
std::string device_of(const std::string& name) { return split_host_device(name)->second; }

// The cable flows, read by name: the ring runs host-0 -> host-1 -> host-2 -> host-3 -> host-0 on each rail
// (8 flows, 2(n-1) = 14 steps of S/(R n) = S/16); PXN's all-to-all is the all-to-all among the 4 hosts on
// each rail (4 x 3 x 2 = 24 flows of R S / n = S/4); no flow ever joins two rails or stays in a host.
TEST_F(RailCompare, CableFlowsStayOnTheirRailAndLeaveTheHost) {
  const auto hosts = hosts_in_name_order();
  auto ring = make_rail_collective(CollectiveSpec{CollectiveKind::kRingAllReduce, 0}, layout, hosts);
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  EXPECT_EQ(ring->ranks, 8u);
  EXPECT_DOUBLE_EQ(ring->bus_factor, 2.0 * 7 / 8);
  ASSERT_EQ(ring->phases.size(), 1u);
  EXPECT_EQ(ring->phases[0].repeat, 14u);
  EXPECT_DOUBLE_EQ(ring->phases[0].volume, 1.0 / 16);
  std::set<std::pair<std::string, std::string>> got;
  for (const FlowPair& f : ring->phases[0].instance.flows) got.emplace(names[f.src], names[f.dst]);
  std::set<std::pair<std::string, std::string>> want;
  for (int r = 0; r < 2; ++r) {
    for (int h = 0; h < 4; ++h) {
      const std::string dev = " mlx5_" + std::to_string(r);
      want.emplace("host-" + std::to_string(h) + dev, "host-" + std::to_string((h + 1) % 4) + dev);
    }
  }
  EXPECT_EQ(got, want);

  auto a2a = make_rail_collective(CollectiveSpec{CollectiveKind::kAllToAll, 0}, layout, hosts);
  ASSERT_TRUE(a2a.ok()) << a2a.error().message;
  ASSERT_EQ(a2a->phases.size(), 1u);
  EXPECT_EQ(a2a->phases[0].instance.flows.size(), 24u);
  EXPECT_DOUBLE_EQ(a2a->phases[0].volume, 0.25);
  std::set<std::pair<std::uint32_t, std::uint32_t>> distinct;
  for (const FlowPair& f : a2a->phases[0].instance.flows) {
    EXPECT_NE(host_of(names[f.src]), host_of(names[f.dst]));
    EXPECT_EQ(device_of(names[f.src]), device_of(names[f.dst]));
    distinct.emplace(f.src, f.dst);
  }
  EXPECT_EQ(distinct.size(), 24u);

  // Expert groups: of 2 ranks = inside a host (no phases); of 4 = host pairs (0,1), (2,3) on each rail,
  // 8 flows of R S / G = S/2; of 3 = neither.
  auto inside = make_rail_collective(CollectiveSpec{CollectiveKind::kMoeAllToAll, 2}, layout, hosts);
  ASSERT_TRUE(inside.ok());
  EXPECT_TRUE(inside->phases.empty());
  auto pairs = make_rail_collective(CollectiveSpec{CollectiveKind::kMoeAllToAll, 4}, layout, hosts);
  ASSERT_TRUE(pairs.ok());
  ASSERT_EQ(pairs->phases.size(), 1u);
  EXPECT_EQ(pairs->phases[0].instance.flows.size(), 8u);
  EXPECT_DOUBLE_EQ(pairs->phases[0].volume, 0.5);
  for (const FlowPair& f : pairs->phases[0].instance.flows) {
    const std::string a = host_of(names[f.src]), b = host_of(names[f.dst]);
    EXPECT_TRUE((a == "host-0" && b == "host-1") || (a == "host-1" && b == "host-0") ||
                (a == "host-2" && b == "host-3") || (a == "host-3" && b == "host-2"))
        << a << " -> " << b;
  }
  auto odd = make_rail_collective(CollectiveSpec{CollectiveKind::kMoeAllToAll, 3}, layout, hosts);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.error().message.find("neither whole hosts"), std::string::npos) << odd.error().message;
  const std::vector<std::uint32_t> one{hosts[0]};
  EXPECT_FALSE(make_rail_collective(CollectiveSpec{CollectiveKind::kRingAllReduce, 0}, layout, one).ok());
}

// Times by hand (units of S / line rate).
// Ring: each leaf sends one ring flow up (host-1 -> host-2 or host-3 -> host-0 on its rail) and receives
// one, so no cable carries two flows under any scheme: rate 1, time 14 x 1/16 = 0.875 = ideal, busBw
// 1.75 / 0.875 = 2 = R (the host's two HCAs carry the ring's hops together).
// All-to-all: each HCA sends and receives 3 flows: rate 1/3 at best, ideal 3 x 1/4 = 0.75. A leaf sends 4
// flows (2 hosts x 2 remote hosts) over its 2 uplinks: at 2 flows a cable (ftree: one spine per
// destination position; AR's least-loaded placement; spraying's halves) they fit (2/3 <= 1), time 0.75;
// a hash that puts 3 on one cable still fits (exactly 1); all 4 on one cable give 1/4 each: time 1,
// relative 4/3. So ib-static, ib-adaptive and roce-spray are at 1, the hashed schemes at 1 or 4/3.
// Expert groups of 2 ranks put nothing on the fabric: left out with a note.
TEST_F(RailCompare, TimesWorkedOutByHand) {
  auto cmp = compare("ring,alltoall,moe:2,moe:4");
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  ASSERT_EQ(cmp->collectives.size(), 3u);
  const auto& ring = cmp->collectives[0];
  EXPECT_EQ(ring.name, "ring-allreduce");
  EXPECT_EQ(ring.ranks, 8u);
  EXPECT_EQ(ring.leaves, 4u);
  EXPECT_NEAR(ring.ideal_time, 0.875, 1e-12);
  for (const auto& s : ring.schemes) {
    EXPECT_NEAR(s.time, 0.875, 1e-12) << s.name;
    EXPECT_NEAR(s.bus_bandwidth, 2.0, 1e-12) << s.name;
  }
  const auto& a2a = cmp->collectives[1];
  EXPECT_EQ(a2a.name, "alltoall");
  EXPECT_NEAR(a2a.ideal_time, 0.75, 1e-12);
  for (const char* s : {"ib-static", "ib-adaptive", "roce-spray"}) {
    EXPECT_NEAR(scheme(a2a, s).relative_time, 1.0, 1e-12) << s;
  }
  for (const char* s : {"roce-ecmp", "roce-eecmp"}) {
    const double rel = scheme(a2a, s).relative_time;
    EXPECT_TRUE(std::abs(rel - 1.0) < 1e-9 || (rel > 1.0 && rel <= 4.0 / 3 + 1e-9)) << s << " " << rel;
  }
  RecordProperty("ecmp_alltoall_relative_time", std::to_string(scheme(a2a, "roce-ecmp").relative_time));
  const auto& moe = cmp->collectives[2];
  EXPECT_EQ(moe.name, "moe-alltoall:4");
  EXPECT_NEAR(moe.ideal_time, 0.5, 1e-12);
  for (const auto& s : moe.schemes) EXPECT_NEAR(s.relative_time, 1.0, 1e-12) << s.name;
  bool left_out = false, said_rails = false;
  for (const auto& n : cmp->notes) {
    left_out |= n.find("moe-alltoall:2 left out") != std::string::npos;
    said_rails |= n.find("multi-HCA hosts: 4 hosts x 2 HCAs") != std::string::npos;
  }
  EXPECT_TRUE(left_out);
  EXPECT_TRUE(said_rails);
}

// A job that holds part of a host is refused, naming the host.
TEST_F(RailCompare, PartialHostJobRefused) {
  CompareOptions o;
  o.patterns.seeds = 1;
  o.patterns.max_shifts = 1;
  o.patterns.all_to_all = false;
  o.collectives = parse_collectives("ring").value();
  o.rails = layout;
  o.jobs = {Job{"half", {layout.endpoint(0, 0), layout.endpoint(1, 0), layout.endpoint(1, 1)}}};
  auto cmp = compare_schemes(topo, lids, tables, *plan, o);
  ASSERT_FALSE(cmp.ok());
  EXPECT_NE(cmp.error().message.find("job half: host '" + layout.host_names[0] + "' has 2 HCAs and the job holds 1"),
            std::string::npos)
      << cmp.error().message;
}

// The RoCE plan of a rail fabric with a core (2 units x 2 hosts x 2 rails, 2 rail planes of 2 spines, 2
// cores): leaves tier 0, one ASN each; each rail plane's spines tier 1 sharing one ASN per plane (they
// meet only through their rail's leaves, like a pod's aggregation switches); cores tier 2, one ASN. A leaf
// reaches the other unit's leaf of its own rail and every leaf of the other rail through both its spines
// (its two uplinks, ports 3 and 4); a spine reaches a leaf of the other rail only through the cores.
TEST(RailPlan, OneAsPerRailPlaneCrossRailThroughTheCores) {
  auto t = make_rail_optimized(RailSpec{2, 2, 2, 4, 1, 2});
  ASSERT_TRUE(t.ok()) << t.error().message;
  auto plan = RoutePlan::build(*t);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  auto index = [&](const std::string& name) {
    for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
      if (plan->switches()[s].name == name) return s;
    }
    ADD_FAILURE() << name;
    return SwitchIndex{0};
  };
  std::set<std::uint32_t> leaf_asns;
  for (const char* leaf : {"leaf-su0-r0", "leaf-su0-r1", "leaf-su1-r0", "leaf-su1-r1"}) {
    EXPECT_EQ(plan->switches()[index(leaf)].tier, 0) << leaf;
    leaf_asns.insert(plan->switches()[index(leaf)].asn);
  }
  EXPECT_EQ(leaf_asns.size(), 4u);
  const auto& s00 = plan->switches()[index("spine-r0-0")];
  const auto& s01 = plan->switches()[index("spine-r0-1")];
  const auto& s10 = plan->switches()[index("spine-r1-0")];
  EXPECT_EQ(s00.tier, 1);
  EXPECT_EQ(s00.asn, s01.asn);
  EXPECT_NE(s00.asn, s10.asn);
  EXPECT_EQ(plan->switches()[index("core-0")].tier, 2);
  EXPECT_EQ(plan->switches()[index("core-0")].asn, plan->switches()[index("core-1")].asn);

  const auto ports = [](std::span<const PortNum> g) { return std::vector<PortNum>(g.begin(), g.end()); };
  const std::vector<PortNum> uplinks{3, 4};
  const SwitchIndex leaf = index("leaf-su0-r0");
  EXPECT_EQ(ports(plan->fib().group(leaf, index("leaf-su1-r0"))), uplinks);
  EXPECT_EQ(ports(plan->fib().group(leaf, index("leaf-su1-r1"))), uplinks);
  // spine-r0-0: leaves of rail 0 on ports 1, 2; cores on 3, 4.
  const std::vector<PortNum> cores{3, 4};
  EXPECT_EQ(ports(plan->fib().group(index("spine-r0-0"), index("leaf-su1-r1"))), cores);
  EXPECT_EQ(ports(plan->fib().group(index("spine-r0-0"), index("leaf-su1-r0"))), std::vector<PortNum>{2});
}

}  // namespace
}  // namespace smd::roce::roce_rail_test
