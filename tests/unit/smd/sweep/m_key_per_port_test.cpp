// Per-port M_Keys (security.m_key_per_port) through whole sweeps against FakeFabric, whose SMAs check the
// key as IBA 14.2.4 has it (levels 0..3, the lease timer): each endport gets the key derived from the
// secret and its port GUID; a restarted smd reaches a fabric protected at level 2 and 3 through
// state_dir/guid2mkey and state_dir/neighbors; and the lost-key cases, one by one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/program/port_m_key.h"
#include "smd/state/m_key_files.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::m_key_per_port_test {
namespace {

constexpr std::uint64_t kSecret = 0x0123456789ABCDEFULL;
constexpr std::uint64_t kOtherSecret = 0x0F1E2D3C4B5A6978ULL;
constexpr std::uint16_t kLease = 30;

using test::first_problem;
using test::SweepRig;

// HMAC-SHA-256 known answers, computed with Python's hmac module (not with smd's code):
//   int.from_bytes(hmac.new(secret.to_bytes(8,'big'), guid.to_bytes(8,'big'), sha256).digest()[:8], 'big')
TEST(PortMKey, DerivationMatchesHmacSha256KnownAnswers) {
  EXPECT_EQ(derive_port_m_key(0x0123456789ABCDEFULL, 0x0002c90300000001ULL), 0xd73a14c1011624b8ULL);
  EXPECT_EQ(derive_port_m_key(1, 0), 0x46e9bfd8fe39f715ULL);
  EXPECT_EQ(derive_port_m_key(0xFFFFFFFFFFFFFFFFULL, 0x200000), 0x98d857243027824eULL);
  EXPECT_EQ(derive_port_m_key(0x8000000000000000ULL, 0x100001), 0xfe948809d0a1651bULL);
  EXPECT_EQ(derive_port_m_key(0, 0x100001), 0u);  // no secret: no key
}

Topology leaf_spine() { return make_leaf_spine(LeafSpineSpec{4, 2, 3, 2}).value(); }

void per_port(SweepRig& rig, unsigned protect, std::uint64_t secret = kSecret) {
  rig.policy.security.m_key = secret;
  rig.policy.security.m_key_protect = protect;
  rig.policy.security.m_key_lease_period_s = kLease;
  rig.policy.security.m_key_per_port = true;
}

// The port whose key guards node n's SMA: switch port 0, CA port 1 (every CA here has one cable).
PortNum key_port(const Topology& t, NodeIndex n) { return t.node(n).is_switch() ? 0 : 1; }

// A CA that is not the SM's node, and a switch: the ports the lost-key cases protect behind smd's back.
NodeIndex other_ca(const Topology& t) {
  for (NodeIndex n : t.cas()) {
    if (n != t.sm_node) return n;
  }
  return kNoNode;
}

void expect_derived_keys(const SweepRig& rig, std::uint64_t secret, unsigned protect) {
  std::set<std::uint64_t> distinct;
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    const PortNum p = key_port(rig.topo, n);
    const Guid g = rig.topo.node(n).ports[p].guid;
    EXPECT_EQ(rig.fabric.m_key(n, p), derive_port_m_key(secret, g)) << rig.topo.node(n).description;
    EXPECT_EQ(rig.fabric.m_key_protect(n, p), protect) << rig.topo.node(n).description;
    distinct.insert(rig.fabric.m_key(n, p));
  }
  EXPECT_EQ(distinct.size(), rig.topo.size());  // one key per port, none shared
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RestartAtLevel : public ::testing::TestWithParam<unsigned> {};

TEST_P(RestartAtLevel, ARestartedSmdReachesEveryPortWithItsOwnKey) {
  SweepRig rig(leaf_spine());
  per_port(rig, GetParam());
  {
    SweepRunner first(rig.io, rig.fabric, rig.policy);
    const SweepSummary s = first.heavy_sweep();
    ASSERT_TRUE(s.subnet_up) << first_problem(s);
  }
  expect_derived_keys(rig, kSecret, GetParam());
  // guid2mkey lists exactly what the ports hold, read back from the fabric, not from smd.
  auto keys = parse_guid2mkey(read_text(rig.policy.sm.state_dir + "/guid2mkey"), "guid2mkey");
  EXPECT_TRUE(keys.problems.empty());
  ASSERT_EQ(keys.entries.size(), rig.topo.size());
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    const PortNum p = key_port(rig.topo, n);
    EXPECT_EQ(keys.entries[rig.topo.node(n).ports[p].guid], rig.fabric.m_key(n, p));
  }
  // A new process: everything it knows of the keys comes from state_dir.
  const unsigned violations = rig.fabric.m_key_violations();
  SweepRunner restarted(rig.io, rig.fabric, rig.policy);
  const SweepSummary s = restarted.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.switches, rig.topo.switches().size());
  EXPECT_EQ(s.cas, rig.topo.cas().size());
  EXPECT_EQ(s.port_sets, 0u);  // every key, protection and lease read back as already right
  EXPECT_EQ(rig.fabric.m_key_violations(), violations);  // no SMP carried a wrong key
}

INSTANTIATE_TEST_SUITE_P(MKeyPerPort, RestartAtLevel, ::testing::Values(2u, 3u));

// Level 2 without the neighbors file: no path can be tied to a port GUID, so no key can be named; every
// port stays locked until its lease runs out, then the next sweep keys the fabric afresh.
TEST(MKeyPerPort, WithoutStateFilesALevel2FabricWaitsForTheLease) {
  SweepRig rig(leaf_spine());
  per_port(rig, 2);
  {
    SweepRunner first(rig.io, rig.fabric, rig.policy);
    ASSERT_TRUE(first.heavy_sweep().subnet_up);
  }
  std::filesystem::remove(rig.policy.sm.state_dir + "/neighbors");
  std::filesystem::remove(rig.policy.sm.state_dir + "/guid2mkey");
  SweepRunner restarted(rig.io, rig.fabric, rig.policy);
  const SweepSummary locked = restarted.heavy_sweep();
  EXPECT_FALSE(locked.subnet_up);
  EXPECT_EQ(locked.switches, 0u);
  EXPECT_FALSE(restarted.m_keys().unknown_key_paths().empty());
  EXPECT_TRUE(rig.fabric.lease_running(rig.topo.sm_node, rig.topo.sm_port));
  rig.fabric.advance_clock(kLease - 1);
  EXPECT_FALSE(restarted.heavy_sweep().subnet_up);  // the lease has not run out yet
  rig.fabric.advance_clock(1);
  // Each port's timer started when the first SMP with a wrong key reached it; the sweeps that follow
  // reach one more hop each time a lease runs out behind the last.
  SweepSummary s;
  for (unsigned i = 0; i < 8 && !s.subnet_up; ++i) {
    s = restarted.heavy_sweep();
    rig.fabric.advance_clock(kLease);
  }
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  expect_derived_keys(rig, kSecret, 2);
}

// One CA holds a key smd never knew (another SM's), at each protection level.
class ForeignKeyAtLevel : public ::testing::TestWithParam<unsigned> {};

TEST_P(ForeignKeyAtLevel, ThePortIsReportedThenRekeyedOnceItsLeaseRunsOut) {
  const unsigned level = GetParam();
  SweepRig rig(leaf_spine());
  per_port(rig, level);
  const NodeIndex ca = other_ca(rig.topo);
  ASSERT_NE(ca, kNoNode);
  constexpr std::uint64_t kForeign = 0xBADC0FFEE0DDF00DULL;
  rig.fabric.set_m_key(ca, 1, kForeign, static_cast<std::uint8_t>(level), kLease);
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  EXPECT_EQ(rig.fabric.m_key(ca, 1), kForeign);  // nothing smd sent could change it
  EXPECT_TRUE(rig.fabric.lease_running(ca, 1));
  if (level >= 2) {
    EXPECT_EQ(first.cas, rig.topo.cas().size() - 1);  // it does not even answer NodeInfo
    EXPECT_EQ(runner.m_keys().unknown_key_paths().size(), 1u);
  } else {
    EXPECT_EQ(first.cas, rig.topo.cas().size());  // level 1: Gets are answered, with the key shown as 0
    EXPECT_FALSE(first.subnet_up);                // but its PortInfo Set (LID, key) is refused
    EXPECT_EQ(rig.fabric.lid(ca, 1), 0u);
  }
  rig.fabric.advance_clock(kLease);
  const SweepSummary second = runner.heavy_sweep();
  ASSERT_TRUE(second.subnet_up) << first_problem(second);
  expect_derived_keys(rig, kSecret, level);
  EXPECT_FALSE(rig.fabric.lease_running(ca, 1));
}

// Level 0: a Get always shows the key, so the foreign key is read and used at once: no lease to wait for.
TEST(MKeyPerPort, ALevel0ForeignKeyIsReadAndReplacedAtOnce) {
  SweepRig rig(leaf_spine());
  per_port(rig, 0);
  const NodeIndex ca = other_ca(rig.topo);
  rig.fabric.set_m_key(ca, 1, 0xBADC0FFEE0DDF00DULL, 0, kLease);
  const SweepSummary s = rig.runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  expect_derived_keys(rig, kSecret, 0);
}

INSTANTIATE_TEST_SUITE_P(MKeyPerPort, ForeignKeyAtLevel, ::testing::Values(1u, 2u, 3u));

// security.m_key changed by a reload: the ports still hold keys derived from the old one, which smd tries
// after the new ones, so the fabric is rekeyed in one sweep with no lease to wait for.
TEST(MKeyPerPort, AChangedSecretRekeysEveryPortThroughTheEarlierKey) {
  SweepRig rig(leaf_spine());
  per_port(rig, 3);
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  Policy reloaded = rig.policy;
  reloaded.security.m_key = kOtherSecret;
  runner.set_policy(reloaded);
  const SweepSummary s = runner.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  expect_derived_keys(rig, kOtherSecret, 3);
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) EXPECT_FALSE(rig.fabric.lease_running(n, key_port(rig.topo, n)));
}

// The secret changed across a restart: the new process knows the old per-port keys only from guid2mkey.
TEST(MKeyPerPort, AChangedSecretAcrossARestartIsBridgedByGuid2mkey) {
  SweepRig rig(leaf_spine());
  per_port(rig, 2);
  {
    SweepRunner first(rig.io, rig.fabric, rig.policy);
    ASSERT_TRUE(first.heavy_sweep().subnet_up);
  }
  rig.policy.security.m_key = kOtherSecret;
  SweepRunner restarted(rig.io, rig.fabric, rig.policy);
  const SweepSummary s = restarted.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  expect_derived_keys(rig, kOtherSecret, 2);
  auto keys = parse_guid2mkey(read_text(rig.policy.sm.state_dir + "/guid2mkey"), "guid2mkey");
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    const PortNum p = key_port(rig.topo, n);
    EXPECT_EQ(keys.entries[rig.topo.node(n).ports[p].guid], derive_port_m_key(kOtherSecret, rig.topo.node(n).ports[p].guid));
  }
}

// From one key for every port (m_key_per_port false) to per-port keys: the plain key is still tried.
TEST(MKeyPerPort, TurningItOnRekeysAFabricHeldByThePlainKey) {
  SweepRig rig(leaf_spine());
  per_port(rig, 2);
  rig.policy.security.m_key_per_port = false;
  {
    SweepRunner first(rig.io, rig.fabric, rig.policy);
    ASSERT_TRUE(first.heavy_sweep().subnet_up);
  }
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) ASSERT_EQ(rig.fabric.m_key(n, key_port(rig.topo, n)), kSecret);
  rig.policy.security.m_key_per_port = true;
  SweepRunner restarted(rig.io, rig.fabric, rig.policy);
  const SweepSummary s = restarted.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  expect_derived_keys(rig, kSecret, 2);
}

TEST(MKeyPerPort, NoKeyMeansNoStateFiles) {
  SweepRig rig(leaf_spine());
  rig.policy.security.m_key_per_port = true;  // but m_key 0: nothing to derive from
  ASSERT_TRUE(rig.runner().heavy_sweep().subnet_up);
  EXPECT_FALSE(std::filesystem::exists(rig.policy.sm.state_dir + "/guid2mkey"));
  EXPECT_FALSE(std::filesystem::exists(rig.policy.sm.state_dir + "/neighbors"));
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) EXPECT_EQ(rig.fabric.m_key(n, key_port(rig.topo, n)), 0u);
}

}  // namespace
}  // namespace smd::m_key_per_port_test
