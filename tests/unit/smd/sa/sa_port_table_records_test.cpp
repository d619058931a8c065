// VLArbTableRecord and SL2VLTableRecord through answer_mad with a TableCache whose reads a fake SMA
// answers, as osmtest -f q asks for them (OpenSM's behaviour, osmt_slvl_vl_arb.c): a CA's LID with port 0,
// a switch's port 0 with every VLArb block 1-4 and SL2VL (in 0, out 0). Record offsets written here from
// IBA 15.2.5.12/.14: LID 0-1, then (port, block) or (in, out) at bytes 2 and 3, the table at byte 8.
#include <gtest/gtest.h>

#include <functional>

#include "tests/unit/smd/sa/sa_rig.h"
#include "smd/sa/table_cache.h"

namespace smd::sa::sa_port_table_records_test {
namespace {

using namespace testing;

constexpr std::uint16_t kVlArbRecord = 0x0036;
constexpr std::uint16_t kSl2VlRecord = 0x0013;

/// A fake SMA behind the cache: every Get is answered with 64 bytes whose first four name what was read
/// (attribute, attribute modifier), so a record shows which block it came from.
class PortTables : public ::testing::Test {
 protected:
  void SetUp() override { state.tables = &cache; }

  /// Rebuild the rig's fabric after `edit` changed what the sweep read.
  void reread(const std::function<void(ObservedFabric&)>& edit) {
    ObservedFabric obs = rig.fabric->observed();
    edit(obs);
    rig.fabric = SaFabric::build(std::move(obs), rig.lids, rig.tables, kPrefix);
    rig.snap.fabric = rig.fabric;
  }

  /// Ask until answered, serving every block the SA asks for from the fake SMA.
  Answer ask_served(const Mad& m) {
    for (int round = 0; round < 8; ++round) {
      Answer a = ask(rig.snap, state, m);
      if (a.sent()) return a;
      for (const TableKey& k : state.missing) cache.want(k);
      state.missing.clear();
      cache.pump(TableCache::Clock::now());
      for (; served < sent.size(); ++served) {
        const auto h = mad::decode_smp_header(sent[served]);
        mad::SmpData data{};
        data[0] = static_cast<std::uint8_t>(h->attr_id);
        data[1] = static_cast<std::uint8_t>(h->attr_mod >> 16);
        data[2] = static_cast<std::uint8_t>(h->attr_mod >> 8);
        data[3] = static_cast<std::uint8_t>(h->attr_mod);
        std::array<std::uint8_t, mad::kMadSize> resp{};
        mad::make_smp_response(sent[served], 0, data, resp);
        EXPECT_TRUE(cache.on_answer(resp));
      }
    }
    ADD_FAILURE() << "no answer after the blocks were served";
    return {};
  }

  static Mad vlarb(std::uint8_t method, std::uint64_t mask, Lid lid, std::uint8_t port, std::uint8_t block) {
    Mad m = request(method, kVlArbRecord, mask);
    auto r = rec_of(m);
    put16(r, 0, lid);
    r[2] = port;
    r[3] = block;
    return m;
  }

  Rig rig = make_rig();
  SaState state;
  std::vector<std::array<std::uint8_t, mad::kMadSize>> sent;
  std::size_t served = 0;
  TableCache cache{[this](std::span<const std::uint8_t, mad::kMadSize> smp, Lid) {
                     std::array<std::uint8_t, mad::kMadSize> copy{};
                     std::copy(smp.begin(), smp.end(), copy.begin());
                     sent.push_back(copy);
                     return 0;
                   },
                   0, std::chrono::milliseconds(1000), 0};
};

constexpr std::uint64_t kLid = 1u << 0, kPort = 1u << 1, kBlock = 1u << 2;

// osmtest asks (CA LID, port 0, block b): the SA fills in the CA's port. Host A has VLArbLowCap 8 and
// VLArbHighCap 40: blocks 1, 3 and 4 hold entries and are read; block 2 (entries 32-63 of the low table)
// holds none and is an empty table, not read.
TEST_F(PortTables, VlArbOfACaLidNamesItsPortWhateverThePortNumberSays) {
  reread([&](ObservedFabric& o) {
    o.nodes[rig.a].ports[1].port_info->vl_arbitration_low_cap = 8;
    o.nodes[rig.a].ports[1].port_info->vl_arbitration_high_cap = 40;
  });
  const struct {
    std::uint8_t block;
    bool read;
  } cases[] = {{1, true}, {2, false}, {3, true}, {4, true}};
  for (const auto& c : cases) {
    const std::size_t reads_before = sent.size();
    const Answer a = ask_served(vlarb(IB_MAD_METHOD_GET, kLid | kPort | kBlock, rig.lid_a, 0, c.block));
    ASSERT_EQ(a.status(), 0) << "block " << int(c.block);
    const auto r = a.record(0);
    EXPECT_EQ(get_be(r, 0, 2), rig.lid_a);
    EXPECT_EQ(r[2], 1) << "the CA's own port";
    EXPECT_EQ(r[3], c.block);
    EXPECT_EQ(sent.size() - reads_before, c.read ? 1u : 0u) << "block " << int(c.block);
    if (c.read) {
      // SMP VLArbitrationTable 0x18, AttrMod block << 16 | port.
      EXPECT_EQ(r[8], 0x18);
      EXPECT_EQ(get_be(r, 9, 3), (std::uint64_t{c.block} << 16) | 1u);
    } else {
      for (std::size_t i = 8; i < 72; ++i) ASSERT_EQ(r[i], 0) << "byte " << i;
    }
  }
}

// A switch's port 0 (no VLArb caps) has every block 1-4, empty, without a read: osmtest's "switch port 0"
// queries (it takes port 0 for a CA port, since it has a CapabilityMask) all answer.
TEST_F(PortTables, VlArbOfASwitchPortZeroIsEveryBlockEmpty) {
  for (std::uint8_t b = 1; b <= 4; ++b) {
    const Answer a = ask_served(vlarb(IB_MAD_METHOD_GET, kLid | kPort | kBlock, 1, 0, b));
    ASSERT_EQ(a.status(), 0) << "block " << int(b);
    EXPECT_EQ(a.record(0)[2], 0);
    EXPECT_EQ(a.record(0)[3], b);
  }
  EXPECT_TRUE(sent.empty()) << "no port has VLArb caps in the rig: nothing to read";
  const Answer all = ask_served(vlarb(IB_MAD_METHOD_GET_TABLE, kLid | kPort, 1, 0, 0));
  ASSERT_EQ(all.status(), 0);
  EXPECT_EQ(all.count(), 4u);
  // A switch LID does not name one port: port 5 is asked for and has no PortInfo in the rig.
  EXPECT_EQ(ask_served(vlarb(IB_MAD_METHOD_GET, kLid | kPort | kBlock, 1, 5, 1)).status(), 0x0300);
}

// SL2VL (in 0, out 0) of a switch: the table of its own port, read with AttrMod 0.
TEST_F(PortTables, Sl2VlOfASwitchOutPortZero) {
  Mad m = request(IB_MAD_METHOD_GET, kSl2VlRecord, kLid | (1u << 1) | (1u << 2));
  auto r = rec_of(m);
  put16(r, 0, 1);
  r[2] = 0;  // in
  r[3] = 0;  // out
  const Answer a = ask_served(m);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.record(0)[2], 0);
  EXPECT_EQ(a.record(0)[3], 0);
  ASSERT_EQ(sent.size(), 1u);
  const auto h = mad::decode_smp_header(sent[0]);
  EXPECT_EQ(h->attr_id, 0x17);
  EXPECT_EQ(h->attr_mod, 0u);
  EXPECT_EQ(a.record(0)[8], 0x17) << "the table read";
  // Every (in, out) of S0's 8 ports, out 0 included: 9 x 9.
  Mad t = request(IB_MAD_METHOD_GET_TABLE, kSl2VlRecord, kLid);
  put16(rec_of(t), 0, 1);
  state.answer_partial = false;
  const Answer all = ask_served(t);
  ASSERT_EQ(all.status(), 0);
  EXPECT_EQ(all.outcome.records, 81u);
}

}  // namespace
}  // namespace smd::sa::sa_port_table_records_test
