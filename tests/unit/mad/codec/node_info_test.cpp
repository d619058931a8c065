// NodeInfo codec vs libibmad's IB_NODE_*_F field table.
#include "mad/codec/node_info.h"

#include <gtest/gtest.h>

#include "tests/unit/mad/oracle.h"

namespace smd::mad::node_info_test {
namespace {

using testing::oracle_get;
using testing::oracle_set;
using testing::random_bits;
using testing::random_data;

TEST(NodeInfo, DecodeMatchesLibibmadOnRandomPayloads) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const SmpData d = random_data(rng);
    const NodeInfo n = NodeInfo::decode(d);
    EXPECT_EQ(n.base_version, oracle_get(d, IB_NODE_BASE_VERS_F));
    EXPECT_EQ(n.class_version, oracle_get(d, IB_NODE_CLASS_VERS_F));
    EXPECT_EQ(n.node_type, oracle_get(d, IB_NODE_TYPE_F));
    EXPECT_EQ(n.num_ports, oracle_get(d, IB_NODE_NPORTS_F));
    EXPECT_EQ(n.system_image_guid, oracle_get(d, IB_NODE_SYSTEM_GUID_F, true));
    EXPECT_EQ(n.node_guid, oracle_get(d, IB_NODE_GUID_F, true));
    EXPECT_EQ(n.port_guid, oracle_get(d, IB_NODE_PORT_GUID_F, true));
    EXPECT_EQ(n.partition_cap, oracle_get(d, IB_NODE_PARTITION_CAP_F));
    EXPECT_EQ(n.device_id, oracle_get(d, IB_NODE_DEVID_F));
    EXPECT_EQ(n.revision, oracle_get(d, IB_NODE_REVISION_F));
    EXPECT_EQ(n.local_port_num, oracle_get(d, IB_NODE_LOCAL_PORT_F));
    EXPECT_EQ(n.vendor_id, oracle_get(d, IB_NODE_VENDORID_F));
    SmpData again{};
    n.encode(again);
    ASSERT_EQ(again, d) << "decode-then-encode must reproduce every byte";
  }
}

TEST(NodeInfo, EncodeIsReadBackByLibibmad) {
  std::mt19937_64 rng(12);
  for (int i = 0; i < 2000; ++i) {
    NodeInfo n;
    n.base_version = static_cast<std::uint8_t>(rng());
    n.class_version = static_cast<std::uint8_t>(rng());
    n.node_type = static_cast<std::uint8_t>(rng());
    n.num_ports = static_cast<std::uint8_t>(rng());
    n.system_image_guid = rng();
    n.node_guid = rng();
    n.port_guid = rng();
    n.partition_cap = static_cast<std::uint16_t>(rng());
    n.device_id = static_cast<std::uint16_t>(rng());
    n.revision = static_cast<std::uint32_t>(rng());
    n.local_port_num = static_cast<std::uint8_t>(rng());
    n.vendor_id = static_cast<std::uint32_t>(random_bits(rng, 24));
    SmpData d{};
    n.encode(d);
    EXPECT_EQ(oracle_get(d, IB_NODE_BASE_VERS_F), n.base_version);
    EXPECT_EQ(oracle_get(d, IB_NODE_CLASS_VERS_F), n.class_version);
    EXPECT_EQ(oracle_get(d, IB_NODE_TYPE_F), n.node_type);
    EXPECT_EQ(oracle_get(d, IB_NODE_NPORTS_F), n.num_ports);
    EXPECT_EQ(oracle_get(d, IB_NODE_SYSTEM_GUID_F, true), n.system_image_guid);
    EXPECT_EQ(oracle_get(d, IB_NODE_GUID_F, true), n.node_guid);
    EXPECT_EQ(oracle_get(d, IB_NODE_PORT_GUID_F, true), n.port_guid);
    EXPECT_EQ(oracle_get(d, IB_NODE_PARTITION_CAP_F), n.partition_cap);
    EXPECT_EQ(oracle_get(d, IB_NODE_DEVID_F), n.device_id);
    EXPECT_EQ(oracle_get(d, IB_NODE_REVISION_F), n.revision);
    EXPECT_EQ(oracle_get(d, IB_NODE_LOCAL_PORT_F), n.local_port_num);
    EXPECT_EQ(oracle_get(d, IB_NODE_VENDORID_F), n.vendor_id);
    // Bytes 40..63 are reserved: a fresh NodeInfo leaves them zero.
    for (std::size_t b = 40; b < 64; ++b) EXPECT_EQ(d[b], 0) << b;
  }
}

TEST(NodeInfo, DecodesAFieldSetByLibibmadAlone) {
  SmpData d{};
  oracle_set(d, IB_NODE_TYPE_F, 2);
  oracle_set(d, IB_NODE_NPORTS_F, 36);
  oracle_set(d, IB_NODE_GUID_F, 0x0002c90300a1b2c3ull, true);
  oracle_set(d, IB_NODE_VENDORID_F, 0x0002c9);
  oracle_set(d, IB_NODE_LOCAL_PORT_F, 17);
  const NodeInfo n = NodeInfo::decode(d);
  EXPECT_TRUE(n.is_switch());
  EXPECT_EQ(n.num_ports, 36);
  EXPECT_EQ(n.node_guid, 0x0002c90300a1b2c3ull);
  EXPECT_EQ(n.vendor_id, 0x0002c9u);
  EXPECT_EQ(n.local_port_num, 17);
  EXPECT_EQ(n.port_guid, 0u);
}

}  // namespace
}  // namespace smd::mad::node_info_test
