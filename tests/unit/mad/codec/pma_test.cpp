// PMA codecs (mad/codec/pma.h) against libibmad's field tables: IB_PC_* (PortCounters), IB_PC_EXT_*
// (PortCountersExtended) and IB_CPI_* (ClassPortInfo), all relative to the attribute data as libibmad
// defines them; and the GMP header against IBA 13.4.2's byte positions.
#include "mad/codec/pma.h"

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <functional>
#include <random>
#include <vector>

namespace smd::mad::pma_test {
namespace {

using PmaData = std::array<std::uint8_t, kPmaDataSize>;

template <typename Attr>
struct Field {
  MAD_FIELDS field;
  const char* name;
  unsigned width;
  std::function<std::uint64_t(const Attr&)> get;
  std::function<void(Attr&, std::uint64_t)> set;
};

#define PMA_FIELD(Attr, f, m, w)                                              \
  Field<Attr> {                                                               \
    f, #m, w, [](const Attr& a) { return static_cast<std::uint64_t>(a.m); },  \
        [](Attr& a, std::uint64_t v) { a.m = static_cast<decltype(a.m)>(v); } \
  }

std::uint64_t oracle_get(const PmaData& d, MAD_FIELDS f, unsigned width) {
  auto* p = const_cast<std::uint8_t*>(d.data());
  return width > 32 ? mad_get_field64(p, 0, f) : mad_get_field(p, 0, f);
}
void oracle_set(PmaData& d, MAD_FIELDS f, unsigned width, std::uint64_t v) {
  if (width > 32) {
    mad_set_field64(d.data(), 0, f, v);
  } else {
    mad_set_field(d.data(), 0, f, static_cast<std::uint32_t>(v));
  }
}
std::uint64_t random_bits(std::mt19937_64& rng, unsigned width) {
  const std::uint64_t v = rng();
  return width >= 64 ? v : v & ((std::uint64_t{1} << width) - 1);
}

// Random attribute bytes decode to libibmad's reading of every field; random field values encode to what
// libibmad reads back; a field libibmad sets alone decodes alone; and encode writes nothing outside the
// fields (its bytes there stay as they were).
template <typename Attr>
void check_against_libibmad(const std::vector<Field<Attr>>& fields, unsigned seed,
                            const std::function<void(PmaData&)>& clear_unlisted = {}) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 500; ++i) {
    PmaData d;
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
    const Attr a = Attr::decode(d);
    for (const auto& f : fields) ASSERT_EQ(f.get(a), oracle_get(d, f.field, f.width)) << f.name;
    PmaData again = d;
    a.encode(again);
    ASSERT_EQ(again, d) << "encode over the same bytes changes nothing";

    Attr b;
    for (const auto& f : fields) f.set(b, random_bits(rng, f.width));
    PmaData out{};
    b.encode(out);
    for (const auto& f : fields) ASSERT_EQ(oracle_get(out, f.field, f.width), f.get(b)) << f.name;
    // Clearing every field through libibmad must leave an all-zero buffer: encode wrote only fields.
    for (const auto& f : fields) oracle_set(out, f.field, f.width, 0);
    if (clear_unlisted) clear_unlisted(out);
    ASSERT_EQ(out, PmaData{}) << "encode wrote outside the fields";
  }
  for (const auto& f : fields) {
    PmaData d{};
    const std::uint64_t v = random_bits(rng, f.width) | 1;
    oracle_set(d, f.field, f.width, v);
    const Attr a = Attr::decode(d);
    for (const auto& other : fields) {
      ASSERT_EQ(other.get(a), &other == &f ? v : 0) << "set " << f.name << " alone, read " << other.name;
    }
  }
}

TEST(PmaPortCounters, MatchesLibibmadFieldByField) {
  using A = PortCounters;
  check_against_libibmad<A>(
      {
          PMA_FIELD(A, IB_PC_PORT_SELECT_F, port_select, 8),
          PMA_FIELD(A, IB_PC_COUNTER_SELECT_F, counter_select, 16),
          PMA_FIELD(A, IB_PC_ERR_SYM_F, symbol_error, 16),
          PMA_FIELD(A, IB_PC_LINK_RECOVERS_F, link_error_recovery, 8),
          PMA_FIELD(A, IB_PC_LINK_DOWNED_F, link_downed, 8),
          PMA_FIELD(A, IB_PC_ERR_RCV_F, port_rcv_errors, 16),
          PMA_FIELD(A, IB_PC_ERR_PHYSRCV_F, port_rcv_remote_physical_errors, 16),
          PMA_FIELD(A, IB_PC_ERR_SWITCH_REL_F, port_rcv_switch_relay_errors, 16),
          PMA_FIELD(A, IB_PC_XMT_DISCARDS_F, port_xmit_discards, 16),
          PMA_FIELD(A, IB_PC_ERR_XMTCONSTR_F, port_xmit_constraint_errors, 8),
          PMA_FIELD(A, IB_PC_ERR_RCVCONSTR_F, port_rcv_constraint_errors, 8),
          PMA_FIELD(A, IB_PC_COUNTER_SELECT2_F, counter_select2, 8),
          PMA_FIELD(A, IB_PC_ERR_LOCALINTEG_F, local_link_integrity_errors, 4),
          PMA_FIELD(A, IB_PC_ERR_EXCESS_OVR_F, excessive_buffer_overrun_errors, 4),
          PMA_FIELD(A, IB_PC_VL15_DROPPED_F, vl15_dropped, 16),
          PMA_FIELD(A, IB_PC_XMT_BYTES_F, port_xmit_data, 32),
          PMA_FIELD(A, IB_PC_RCV_BYTES_F, port_rcv_data, 32),
          PMA_FIELD(A, IB_PC_XMT_PKTS_F, port_xmit_pkts, 32),
          PMA_FIELD(A, IB_PC_RCV_PKTS_F, port_rcv_pkts, 32),
          PMA_FIELD(A, IB_PC_XMT_WAIT_F, port_xmit_wait, 32),
      },
      71, [](PmaData& d) { d[20] = d[21] = 0; });
}

// QP1Dropped is IBA table 247's bits 160..175 (bytes 20-21). libibmad's IB_PC_QP1_DROP_F cannot witness it:
// its table entry {160, 16} lacks the BITSOFFS() every other sub-word PortCounters field has, so libibmad
// reads bytes 22-23, the same bytes as VL15Dropped. Checked here by hand against the byte positions.
TEST(PmaPortCounters, Qp1DroppedIsBytes20And21) {
  PmaData d{};
  d[20] = 0x12;
  d[21] = 0x34;
  const PortCounters c = PortCounters::decode(d);
  EXPECT_EQ(c.qp1_dropped, 0x1234);
  EXPECT_EQ(c.vl15_dropped, 0);
  EXPECT_EQ(c.excessive_buffer_overrun_errors, 0);
  EXPECT_EQ(mad_get_field(d.data(), 0, IB_PC_VL15_DROPPED_F), 0u);
  PmaData out{};
  PortCounters w;
  w.qp1_dropped = 0xBEEF;
  w.encode(out);
  EXPECT_EQ(out[20], 0xBE);
  EXPECT_EQ(out[21], 0xEF);
  out[20] = out[21] = 0;
  EXPECT_EQ(out, PmaData{});
}

TEST(PmaPortCountersExtended, MatchesLibibmadFieldByField) {
  using A = PortCountersExtended;
  check_against_libibmad<A>(
      {
          PMA_FIELD(A, IB_PC_EXT_PORT_SELECT_F, port_select, 8),
          PMA_FIELD(A, IB_PC_EXT_COUNTER_SELECT_F, counter_select, 16),
          PMA_FIELD(A, IB_PC_EXT_XMT_BYTES_F, port_xmit_data, 64),
          PMA_FIELD(A, IB_PC_EXT_RCV_BYTES_F, port_rcv_data, 64),
          PMA_FIELD(A, IB_PC_EXT_XMT_PKTS_F, port_xmit_pkts, 64),
          PMA_FIELD(A, IB_PC_EXT_RCV_PKTS_F, port_rcv_pkts, 64),
          PMA_FIELD(A, IB_PC_EXT_XMT_UPKTS_F, port_unicast_xmit_pkts, 64),
          PMA_FIELD(A, IB_PC_EXT_RCV_UPKTS_F, port_unicast_rcv_pkts, 64),
          PMA_FIELD(A, IB_PC_EXT_XMT_MPKTS_F, port_multicast_xmit_pkts, 64),
          PMA_FIELD(A, IB_PC_EXT_RCV_MPKTS_F, port_multicast_rcv_pkts, 64),
      },
      72);
}

TEST(PmaClassPortInfo, MatchesLibibmadFields) {
  std::mt19937_64 rng(73);
  for (int i = 0; i < 500; ++i) {
    PmaData d;
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
    const PmaClassPortInfo c = PmaClassPortInfo::decode(d);
    EXPECT_EQ(c.base_version, oracle_get(d, IB_CPI_BASEVER_F, 8));
    EXPECT_EQ(c.class_version, oracle_get(d, IB_CPI_CLASSVER_F, 8));
    EXPECT_EQ(c.capability_mask, oracle_get(d, IB_CPI_CAPMASK_F, 16));
    EXPECT_EQ(c.capability_mask2, oracle_get(d, IB_CPI_CAPMASK2_F, 27));
    EXPECT_EQ(c.resp_time_value, oracle_get(d, IB_CPI_RESP_TIME_VALUE_F, 5));
    EXPECT_EQ(pma_capability_mask(d), c.capability_mask);
  }
}

TEST(PmaClassPortInfo, IbsimSwitchCapabilityMask) {
  // What ibsim answers on a switch: AllPortSelect | ExtendedWidthSupported | PortCountersXmitWaitSupported.
  PmaData d{};
  mad_set_field(d.data(), 0, IB_CPI_CAPMASK_F, 0x1300);
  const std::uint16_t mask = pma_capability_mask(d);
  EXPECT_EQ(mask, pma_cap::kAllPortSelect | pma_cap::kExtendedWidthSupported | pma_cap::kPortCountersXmitWaitSupported);
  EXPECT_EQ(mask & pma_cap::kSamplesOnly, 0);
  EXPECT_EQ(pma_capability_mask(std::span<const std::uint8_t>(d.data(), 3)), 0) << "too short";
}

TEST(PmaMad, RequestHeaderByIbaBytePositions) {
  PortCounters set;
  set.port_select = 3;
  set.counter_select = 0x0204;
  set.counter_select2 = 1;
  PmaData data{};
  set.encode(data);
  const auto mad = make_pma_request(0x02, kAttrPortCounters, 0x1122334455667788ull, data);
  EXPECT_EQ(mad[0], 1);     // BaseVersion
  EXPECT_EQ(mad[1], 0x04);  // MgmtClass PerfMgt
  EXPECT_EQ(mad[2], 1);     // ClassVersion
  EXPECT_EQ(mad[3], 0x02);  // Set
  EXPECT_EQ(mad[4], 0);     // Status
  EXPECT_EQ(mad[5], 0);
  EXPECT_EQ(mad[8], 0x11);  // TID, big-endian
  EXPECT_EQ(mad[15], 0x88);
  EXPECT_EQ(mad[16], 0x00);  // AttributeID 0x0012
  EXPECT_EQ(mad[17], 0x12);
  for (std::size_t i = 18; i < 64; ++i) EXPECT_EQ(mad[i], 0) << i;  // reserved, AttributeModifier, GMP reserved
  // libibmad reads the Set's attribute data at IB_PC_DATA_OFFS.
  auto* p = const_cast<std::uint8_t*>(mad.data()) + IB_PC_DATA_OFFS;
  EXPECT_EQ(mad_get_field(p, 0, IB_PC_PORT_SELECT_F), 3u);
  EXPECT_EQ(mad_get_field(p, 0, IB_PC_COUNTER_SELECT_F), 0x0204u);
  EXPECT_EQ(mad_get_field(p, 0, IB_PC_COUNTER_SELECT2_F), 1u);
  EXPECT_EQ(mad_get_field(const_cast<std::uint8_t*>(mad.data()), 0, IB_MAD_CLASSVER_F), 1u);
  EXPECT_EQ(mad_get_field(const_cast<std::uint8_t*>(mad.data()), 0, IB_MAD_ATTRID_F), 0x12u);

  const std::vector<std::uint8_t> too_long(300, 0xAB);
  const auto cut = make_pma_request(0x01, kAttrPortCountersExtended, 1, too_long);
  EXPECT_EQ(cut[kMadSize - 1], 0xAB);
  EXPECT_EQ(cut[63], 0);
}

TEST(PmaMad, ParseResponse) {
  auto mad = make_pma_request(0x01, kAttrPortCountersExtended, 0xABCDull, {});
  EXPECT_FALSE(parse_pma_response(mad).has_value()) << "a Get is not a response";
  mad[3] = 0x81;
  mad[4] = 0x00;
  mad[5] = 0x0C;  // status: unsupported method/attribute combination
  mad[kPmaDataOffset + 1] = 7;
  auto r = parse_pma_response(mad);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->method, 0x81);
  EXPECT_EQ(r->status, 0x000C);
  EXPECT_EQ(r->tid, 0xABCDull);
  EXPECT_EQ(r->attr, kAttrPortCountersExtended);
  ASSERT_EQ(r->data.size(), kPmaDataSize);
  EXPECT_EQ(r->data[1], 7);
  EXPECT_EQ(PortCountersExtended::decode(r->data).port_select, 7);
  mad[1] = kClassSubnAdm;
  EXPECT_FALSE(parse_pma_response(mad).has_value()) << "not class 0x04";
}

TEST(PmaMad, ShortBuffersDecodeAsZeroAndAreNotWritten) {
  std::array<std::uint8_t, 10> small;
  small.fill(0xFF);
  EXPECT_EQ(PortCounters::decode(small).symbol_error, 0);
  PortCounters c;
  c.symbol_error = 5;
  c.encode(small);
  for (auto b : small) EXPECT_EQ(b, 0xFF);
  EXPECT_EQ(PortCountersExtended::decode(small).port_xmit_data, 0u);
}

}  // namespace
}  // namespace smd::mad::pma_test
