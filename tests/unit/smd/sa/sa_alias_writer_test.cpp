// AliasWriter (smd/sa/alias_writer.h): the GUIDInfo Sets the SA sends, checked field by field with
// libibmad, against a model of a port's GUIDInfo table (GUIDCap entries, entry 0 read-only, a Set answered
// with the table as held) — what real HCAs do and ibsim does not (its ports do not store GUIDInfo Sets).
#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <array>
#include <vector>

#include "mad/codec/guid_info.h"
#include "mad/transport/umad_transport.h"
#include "smd/sa/alias_writer.h"
#include "smd/sa/table_cache.h"

namespace smd::sa::sa_alias_writer_test {
namespace {

using Smp = std::array<std::uint8_t, mad::kMadSize>;

// libibmad's getters take a non-const pointer; they only read.
std::uint32_t get32(const std::uint8_t* p, int base, MAD_FIELDS f) {
  return mad_get_field(const_cast<std::uint8_t*>(p), base, f);
}
std::uint64_t get64(const std::uint8_t* p, int base, MAD_FIELDS f) {
  return mad_get_field64(const_cast<std::uint8_t*>(p), base, f);
}

/// One port's GUIDInfo table as an SMA keeps it.
struct PortModel {
  Guid port_guid = 0x0002C90000000B01ull;
  unsigned guid_cap = 32;
  std::vector<Guid> table = std::vector<Guid>(32, 0);
  PortModel() { table[0] = port_guid; }
  /// The GetResp to a Set: entries past GUIDCap and entry 0 are not stored.
  Smp answer(const Smp& set) {
    const unsigned block = get32(set.data(), 0, IB_MAD_ATTRMOD_F);
    for (unsigned i = 0; i < 8; ++i) {
      const unsigned index = block * 8 + i;
      if (index == 0 || index >= guid_cap) continue;
      table[index] = get64(set.data() + IB_SMP_DATA_OFFS, 0, static_cast<MAD_FIELDS>(IB_GI_GUID0_F + i));
    }
    mad::GuidInfoBlock held;
    for (unsigned i = 0; i < 8; ++i) held.guids[i] = block * 8 + i < guid_cap ? table[block * 8 + i] : 0;
    mad::SmpData data{};
    held.encode(data);
    Smp resp{};
    mad::make_smp_response(set, 0, data, resp);
    return resp;
  }
};

struct Wire {
  std::vector<std::pair<Smp, Lid>> sent;
  AliasWriter::Send send() {
    return [this](std::span<const std::uint8_t, mad::kMadSize> smp, Lid to) {
      Smp copy{};
      std::copy(smp.begin(), smp.end(), copy.begin());
      sent.emplace_back(copy, to);
      return 0;
    };
  }
};

constexpr std::array<Guid, 8> kBlock0 = {0x0002C90000000B01ull, 0x0014050000000001ull, 0x1234, 0, 0, 0, 0, 0};

TEST(AliasWriter, SendsALidRoutedGuidInfoSetOfTheBlockAndBelievesTheEcho) {
  Wire wire;
  PortModel port;
  AliasWriter w(wire.send(), 0xABCDull, std::chrono::milliseconds(100), 2);
  w.write(port.port_guid, 4, 0, kBlock0);
  w.pump(AliasWriter::Clock::now());
  ASSERT_EQ(wire.sent.size(), 1u);
  const Smp& smp = wire.sent[0].first;
  EXPECT_EQ(wire.sent[0].second, 4);
  EXPECT_EQ(get32(smp.data(), 0, IB_MAD_MGMTCLASS_F), 0x01u) << "LID routed";
  EXPECT_EQ(get32(smp.data(), 0, IB_MAD_METHOD_F), 0x02u) << "Set";
  EXPECT_EQ(get32(smp.data(), 0, IB_MAD_ATTRID_F), 0x14u) << "GUIDInfo";
  EXPECT_EQ(get32(smp.data(), 0, IB_MAD_ATTRMOD_F), 0u) << "block 0";
  EXPECT_EQ(get64(smp.data(), 0, IB_MAD_MKEY_F), 0xABCDull);
  EXPECT_NE(get64(smp.data(), 0, IB_MAD_TRID_F) & kSaWriteTidBit, 0u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(get64(smp.data() + IB_SMP_DATA_OFFS, 0, static_cast<MAD_FIELDS>(IB_GI_GUID0_F + i)), kBlock0[i]);
  }
  EXPECT_TRUE(w.on_answer(port.answer(smp)));
  const auto out = w.take_outcomes();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, AliasWriter::Outcome::Kind::kHeld);
  EXPECT_EQ(port.table[1], 0x0014050000000001ull) << "the model port stored the alias";
  EXPECT_EQ(w.outstanding(), 0u);
}

TEST(AliasWriter, APortThatHoldsLessIsReportedWithWhatItHolds) {
  Wire wire;
  PortModel port;
  port.guid_cap = 10;  // block 1 has entries 8 and 9 only
  AliasWriter w(wire.send(), 0, std::chrono::milliseconds(100), 2);
  const std::array<Guid, 8> block1 = {0x80, 0x81, 0x82, 0, 0, 0, 0, 0};
  w.write(port.port_guid, 4, 1, block1);
  w.pump(AliasWriter::Clock::now());
  ASSERT_EQ(wire.sent.size(), 1u);
  EXPECT_EQ(get32(wire.sent[0].first.data(), 0, IB_MAD_ATTRMOD_F), 1u);
  ASSERT_TRUE(w.on_answer(port.answer(wire.sent[0].first)));
  const auto out = w.take_outcomes();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, AliasWriter::Outcome::Kind::kDiffers);
  EXPECT_EQ(out[0].held, (std::array<Guid, 8>{0x80, 0x81, 0, 0, 0, 0, 0, 0}));
}

TEST(AliasWriter, RetriesThenGivesUpAndIgnoresTableCacheAnswers) {
  Wire wire;
  AliasWriter w(wire.send(), 0, std::chrono::milliseconds(10), 2);
  w.write(1, 4, 0, kBlock0);
  auto t = AliasWriter::Clock::now();
  w.pump(t);
  for (int i = 0; i < 3; ++i) {
    t += std::chrono::milliseconds(11);
    w.pump(t);
  }
  EXPECT_EQ(wire.sent.size(), 3u) << "one Set and 2 re-sends";
  const auto out = w.take_outcomes();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, AliasWriter::Outcome::Kind::kTimeout);
  // A Get answer of TableCache (kSaTidBit only) is not the writer's.
  Smp get{};
  mad::SmpRequest req;
  req.dlid = 4;
  req.attr_id = 0x16;
  mad::encode_smp(req, mad::kSaTidBit | 5, get);
  Smp resp{};
  mad::make_smp_response(get, 0, mad::SmpData{}, resp);
  EXPECT_FALSE(w.on_answer(resp));
}

TEST(AliasWriter, ANewerWriteOfTheSameBlockReplacesAQueuedOneAndFollowsAnInFlightOne) {
  Wire wire;
  PortModel port;
  AliasWriter w(wire.send(), 0, std::chrono::milliseconds(100), 0);
  std::array<Guid, 8> a = kBlock0, b = kBlock0, c = kBlock0;
  a[2] = 0xA;
  b[2] = 0xB;
  c[2] = 0xC;
  const auto t = AliasWriter::Clock::now();
  w.write(port.port_guid, 4, 0, a);
  w.pump(t);  // a in flight
  w.write(port.port_guid, 4, 0, b);
  w.write(port.port_guid, 4, 0, c);  // replaces b
  w.pump(t);
  ASSERT_EQ(wire.sent.size(), 1u) << "one Set of a block at a time";
  ASSERT_TRUE(w.on_answer(port.answer(wire.sent[0].first)));
  w.pump(t);
  ASSERT_EQ(wire.sent.size(), 2u);
  ASSERT_TRUE(w.on_answer(port.answer(wire.sent[1].first)));
  EXPECT_EQ(port.table[2], 0xCu);
  EXPECT_EQ(w.take_outcomes().size(), 2u);
}

}  // namespace
}  // namespace smd::sa::sa_alias_writer_test
