// CounterStore (smd/perfmgr/counter_store.h): baselines, deltas, saturation and the CounterSelect bits
// that clear it (IBA 16.1.3.5 table 247: bit i = i-th counter from SymbolErrorCounter, bits 12..15 the data
// counters, CounterSelect2 bit 0 PortXmitWait), clears, wraps and rates, all with hand-computed values.
#include "smd/perfmgr/counter_store.h"

#include <gtest/gtest.h>

#include "mad/codec/pma.h"

namespace smd::counter_store_test {
namespace {

constexpr std::size_t idx(PortCounter c) { return static_cast<std::size_t>(c); }
constexpr std::size_t idx(DataCounter c) { return static_cast<std::size_t>(c); }

PortReading reading(PortKey key, double t_s) {
  PortReading r;
  r.key = key;
  r.port_guid = key.node_guid + 1;
  r.lid = 5;
  r.node_desc = "leaf-1";
  r.peer = "spine-0 port 3";
  r.t_s = t_s;
  return r;
}

const PortKey kKey{0x100, 7};

TEST(CounterStore, CounterSelectBitsAgreeWithTheCodecsNames) {
  namespace cs = mad::counter_select;
  auto bit = [](PortCounter c) { return counter_select_bits(1u << idx(c)); };
  EXPECT_EQ(bit(PortCounter::kSymbolError).select, cs::kSymbolError);
  EXPECT_EQ(bit(PortCounter::kLinkDowned).select, cs::kLinkDowned);
  EXPECT_EQ(bit(PortCounter::kPortXmitConstraintErrors).select, cs::kPortXmitConstraintErrors);
  EXPECT_EQ(bit(PortCounter::kExcessiveBufferOverrunErrors).select, cs::kExcessiveBufferOverrunErrors);
  EXPECT_EQ(bit(PortCounter::kVL15Dropped).select, cs::kVL15Dropped);
  EXPECT_EQ(bit(PortCounter::kPortXmitWait).select, 0);
  EXPECT_EQ(bit(PortCounter::kPortXmitWait).select2, cs::kSelect2PortXmitWait);
  EXPECT_EQ(cs::kPortXmitData, 1u << kDataCounterSelectShift);
}

TEST(CounterStore, FirstReadingIsTheBaseline) {
  CounterStore s;
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kSymbolError)] = 40;
  r.data[idx(DataCounter::kXmitData)] = 4000;
  const ReadingResult res = s.apply(r);
  EXPECT_TRUE(res.first);
  EXPECT_EQ(res.delta, CounterArray{});
  ASSERT_EQ(s.size(), 1u);
  const PortCounterRow row = s.rows().front();
  EXPECT_EQ(row.key, kKey);
  EXPECT_EQ(row.port_guid, 0x101u);
  EXPECT_EQ(row.node_desc, "leaf-1");
  EXPECT_EQ(row.peer, "spine-0 port 3");
  EXPECT_EQ(row.raw[idx(PortCounter::kSymbolError)], 40u);
  EXPECT_EQ(row.total, CounterArray{});
  EXPECT_EQ(row.data_total, DataArray{});
  EXPECT_EQ(row.data_rate, DataArray{});
}

// `smctl perfmgr clear`: totals and rates start again from 0; the baseline stays, so the next reading's delta
// is only what moved since the last read (45 -> 52: 7), not the raw value.
TEST(CounterStore, ClearTotalsKeepsTheBaseline) {
  CounterStore s;
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kSymbolError)] = 40;
  r.data[idx(DataCounter::kXmitData)] = 4000;
  s.apply(r);
  r.counters[idx(PortCounter::kSymbolError)] = 45;
  r.data[idx(DataCounter::kXmitData)] = 6000;
  r.t_s = 2;
  s.apply(r);
  ASSERT_EQ(s.rows().front().total[idx(PortCounter::kSymbolError)], 5u);
  s.clear_totals();
  PortCounterRow row = s.rows().front();
  EXPECT_EQ(row.total, CounterArray{});
  EXPECT_EQ(row.last_delta, CounterArray{});
  EXPECT_EQ(row.data_total, DataArray{});
  EXPECT_EQ(row.data_rate, DataArray{});
  EXPECT_EQ(row.raw[idx(PortCounter::kSymbolError)], 45u);  // what the port holds is not touched
  r.counters[idx(PortCounter::kSymbolError)] = 52;
  r.data[idx(DataCounter::kXmitData)] = 7000;
  r.t_s = 3;
  const ReadingResult res = s.apply(r);
  EXPECT_FALSE(res.first);
  EXPECT_EQ(res.delta[idx(PortCounter::kSymbolError)], 7u);
  row = s.rows().front();
  EXPECT_EQ(row.total[idx(PortCounter::kSymbolError)], 7u);
  EXPECT_EQ(row.data_total[idx(DataCounter::kXmitData)], 1000u);
}

TEST(CounterStore, PlainDeltasAddUpInTotals) {
  CounterStore s;
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kSymbolError)] = 5;
  r.counters[idx(PortCounter::kPortRcvErrors)] = 1;
  s.apply(r);
  r.counters[idx(PortCounter::kSymbolError)] = 12;
  r.t_s = 2;
  ReadingResult res = s.apply(r);
  EXPECT_FALSE(res.first);
  EXPECT_EQ(res.delta[idx(PortCounter::kSymbolError)], 7u);
  EXPECT_EQ(res.delta[idx(PortCounter::kPortRcvErrors)], 0u);
  EXPECT_EQ(res.saturated, 0u);
  r.counters[idx(PortCounter::kSymbolError)] = 20;
  r.t_s = 3;
  res = s.apply(r);
  EXPECT_EQ(res.delta[idx(PortCounter::kSymbolError)], 8u);
  const PortCounterRow row = s.rows().front();
  EXPECT_EQ(row.total[idx(PortCounter::kSymbolError)], 15u);
  EXPECT_EQ(row.last_delta[idx(PortCounter::kSymbolError)], 8u);
  EXPECT_TRUE(row.errors_in_last_interval());
}

TEST(CounterStore, SaturatedCountersAndTheirCounterSelectBits) {
  CounterStore s;
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kLinkDowned)] = 250;
  s.apply(r);
  r.counters[idx(PortCounter::kLinkDowned)] = 255;               // 8 bits
  r.counters[idx(PortCounter::kLocalLinkIntegrityErrors)] = 15;  // 4 bits
  r.counters[idx(PortCounter::kVL15Dropped)] = 0xFFFF;           // 16 bits
  r.counters[idx(PortCounter::kPortXmitWait)] = 0xFFFFFFFF;      // 32 bits
  r.counters[idx(PortCounter::kSymbolError)] = 0xFFFE;           // one short: not saturated
  r.t_s = 2;
  const ReadingResult res = s.apply(r);
  EXPECT_EQ(res.delta[idx(PortCounter::kLinkDowned)], 5u);
  // Bits 2, 9, 11 and 12 of PortCounter order.
  EXPECT_EQ(res.saturated, (1u << 2) | (1u << 9) | (1u << 11) | (1u << 12));
  // CounterSelect: LinkDownedCounter bit 2, LocalLinkIntegrityErrors bit 9, VL15Dropped bit 11;
  // CounterSelect2 bit 0: PortXmitWait.
  EXPECT_EQ(res.reset_select, 0x0004 | 0x0200 | 0x0800);
  EXPECT_EQ(res.reset_select2, 0x01);
  EXPECT_EQ(s.rows().front().saturated, res.saturated);
  const CounterSelectBits all = counter_select_bits((1u << kPortCounterCount) - 1);
  EXPECT_EQ(all.select, 0x0FFF);
  EXPECT_EQ(all.select2, 0x01);
}

TEST(CounterStore, ClearedCountersCountFromZero) {
  CounterStore s;
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kLinkDowned)] = 250;
  r.counters[idx(PortCounter::kSymbolError)] = 30;
  s.apply(r);
  r.counters[idx(PortCounter::kLinkDowned)] = 255;
  r.t_s = 2;
  s.apply(r);
  s.cleared(kKey, 0x0004, 0);  // LinkDownedCounter only
  r.counters[idx(PortCounter::kLinkDowned)] = 3;
  r.counters[idx(PortCounter::kSymbolError)] = 31;
  r.t_s = 3;
  const ReadingResult res = s.apply(r);
  EXPECT_EQ(res.delta[idx(PortCounter::kLinkDowned)], 3u) << "baseline 0 after the Set";
  EXPECT_EQ(res.delta[idx(PortCounter::kSymbolError)], 1u) << "not selected: baseline kept";
  const PortCounterRow row = s.rows().front();
  EXPECT_EQ(row.total[idx(PortCounter::kLinkDowned)], 8u);  // 5 + 3
  EXPECT_EQ(row.resets, 1u);
  s.cleared(PortKey{0x999, 1}, 0xFFFF, 1);  // unknown: ignored
  EXPECT_EQ(s.size(), 1u);
}

TEST(CounterStore, ExternalResetAddsTheNewValueAndTotalsNeverGoDown) {
  CounterStore s;
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kSymbolError)] = 100;
  s.apply(r);
  r.counters[idx(PortCounter::kSymbolError)] = 110;
  r.t_s = 2;
  s.apply(r);
  r.counters[idx(PortCounter::kSymbolError)] = 4;  // someone ran perfquery -R
  r.t_s = 3;
  const ReadingResult res = s.apply(r);
  EXPECT_EQ(res.delta[idx(PortCounter::kSymbolError)], 4u);
  EXPECT_EQ(s.rows().front().total[idx(PortCounter::kSymbolError)], 14u);
}

TEST(CounterStore, LegacyDataCountersWrapAt32BitWords) {
  CounterStore s;
  PortReading r = reading(kKey, 10);
  r.data[idx(DataCounter::kXmitData)] = 4ull * 0xFFFFFFF0;  // octets = 4 * words
  r.data[idx(DataCounter::kXmitPkts)] = 0xFFFFFFFF;
  s.apply(r);
  r.data[idx(DataCounter::kXmitData)] = 4ull * 0x10;
  r.data[idx(DataCounter::kXmitPkts)] = 1;
  r.t_s = 12;
  s.apply(r);
  const PortCounterRow row = s.rows().front();
  EXPECT_EQ(row.data_total[idx(DataCounter::kXmitData)], 4u * 0x20);  // 0x20 words
  EXPECT_EQ(row.data_total[idx(DataCounter::kXmitPkts)], 2u);
  EXPECT_EQ(row.data_rate[idx(DataCounter::kXmitData)], 4u * 0x20 / 2);
  EXPECT_FALSE(row.extended);
}

TEST(CounterStore, ExtendedDataCountersThatGoDownWereClearedNotWrapped) {
  // 2^64 octets is 46 years of a 400 Gb/s link: a 64-bit counter below its last value was cleared.
  CounterStore s;
  PortReading r = reading(kKey, 0);
  r.extended = true;
  r.data[idx(DataCounter::kRcvData)] = 0xFFFFFFFFFFFFFFFCull;
  r.data[idx(DataCounter::kRcvPkts)] = 0x1'0000'0000ull;  // past 32 bits: no 2^32 wrap applies
  s.apply(r);
  r.data[idx(DataCounter::kRcvData)] = 8;
  r.data[idx(DataCounter::kRcvPkts)] = 0x1'0000'0010ull;
  r.t_s = 4;
  const ReadingResult res = s.apply(r);
  EXPECT_DOUBLE_EQ(res.elapsed_s, 4.0);
  const PortCounterRow row = s.rows().front();
  EXPECT_EQ(row.data_total[idx(DataCounter::kRcvData)], 8u);
  EXPECT_EQ(row.data_total[idx(DataCounter::kRcvPkts)], 16u);
  EXPECT_EQ(row.data_rate[idx(DataCounter::kRcvData)], 2u);
  EXPECT_EQ(row.data_rate[idx(DataCounter::kRcvPkts)], 4u);
  EXPECT_TRUE(row.extended);
}

TEST(CounterStore, TotalsStopAtTheTopInsteadOfWrapping) {
  // A counter that jumps to all ones, reads low again and jumps once more (a hostile or broken PMA): the
  // jumps are deltas of 2^64 - 11 and 2^64 - 6, the drop a clear worth 5; their sum does not fit, so the
  // total stays at 2^64 - 1 (it never wraps to a small value, which Prometheus would read as a reset).
  CounterStore s;
  PortReading r = reading(kKey, 0);
  r.extended = true;
  r.data[idx(DataCounter::kXmitData)] = 10;
  s.apply(r);
  r.data[idx(DataCounter::kXmitData)] = ~std::uint64_t{0};
  r.t_s = 1;
  s.apply(r);
  r.data[idx(DataCounter::kXmitData)] = 5;
  r.t_s = 2;
  s.apply(r);
  EXPECT_EQ(s.rows().front().data_total[idx(DataCounter::kXmitData)], ~std::uint64_t{0} - 5);
  r.data[idx(DataCounter::kXmitData)] = ~std::uint64_t{0};
  r.t_s = 3;
  s.apply(r);
  EXPECT_EQ(s.rows().front().data_total[idx(DataCounter::kXmitData)], ~std::uint64_t{0});
}

TEST(CounterStore, LegacyDataCountersStuckAtAllOnesAreClearedToo) {
  // Without PortCountersExtended the 32-bit counters may stop at all ones (IBA 16.1.3.5): their
  // CounterSelect bits (12 PortXmitData .. 15 PortRcvPkts) join the reset; data are kept in octets.
  CounterStore s;
  PortReading r = reading(kKey, 0);
  s.apply(r);
  r.data[idx(DataCounter::kXmitData)] = std::uint64_t{0xFFFFFFFF} * 4;
  r.data[idx(DataCounter::kRcvPkts)] = 0xFFFFFFFF;
  r.t_s = 1;
  const ReadingResult res = s.apply(r);
  EXPECT_EQ(res.reset_select, (1u << 12) | (1u << 15));
  EXPECT_EQ(res.reset_select2, 0u);
  // After the Set the next reading counts from 0.
  s.cleared(kKey, res.reset_select, res.reset_select2);
  r.data[idx(DataCounter::kXmitData)] = 40;
  r.data[idx(DataCounter::kRcvPkts)] = 3;
  r.t_s = 2;
  s.apply(r);
  EXPECT_EQ(s.rows().front().data_total[idx(DataCounter::kXmitData)], std::uint64_t{0xFFFFFFFF} * 4 + 40);
  EXPECT_EQ(s.rows().front().data_total[idx(DataCounter::kRcvPkts)], std::uint64_t{0xFFFFFFFF} + 3);
}

TEST(CounterStore, RatesOverTheInterval) {
  CounterStore s;
  PortReading r = reading(kKey, 10);
  r.data[idx(DataCounter::kXmitData)] = 1000;
  s.apply(r);
  r.data[idx(DataCounter::kXmitData)] = 2000;
  r.t_s = 20;
  s.apply(r);
  EXPECT_EQ(s.rows().front().data_rate[idx(DataCounter::kXmitData)], 100u);  // 1000 octets in 10 s
  r.data[idx(DataCounter::kXmitData)] = 2500;  // no time passed: no rate, the octets still count
  s.apply(r);
  EXPECT_EQ(s.rows().front().data_rate[idx(DataCounter::kXmitData)], 0u);
  EXPECT_EQ(s.rows().front().data_total[idx(DataCounter::kXmitData)], 1500u);
}

TEST(CounterStore, ChangingDataSourceTakesANewBaseline) {
  CounterStore s;
  PortReading r = reading(kKey, 0);
  r.data[idx(DataCounter::kXmitData)] = 400;
  s.apply(r);
  r.extended = true;
  r.data[idx(DataCounter::kXmitData)] = 100;  // a different counter now: not a wrap
  r.t_s = 1;
  s.apply(r);
  EXPECT_EQ(s.rows().front().data_total[idx(DataCounter::kXmitData)], 0u);
}

TEST(CounterStore, ForgottenPortComesBackWithANewBaseline) {
  CounterStore s;
  const PortKey other{0x50, 1}, third{0x300, 2};
  PortReading r = reading(kKey, 1);
  r.counters[idx(PortCounter::kSymbolError)] = 10;
  s.apply(r);
  s.apply(reading(other, 1));
  s.apply(reading(third, 1));
  ASSERT_EQ(s.size(), 3u);
  const auto rows = s.rows();
  EXPECT_EQ(rows[0].key, other);
  EXPECT_EQ(rows[1].key, kKey);
  EXPECT_EQ(rows[2].key, third);

  s.retain({third, other});  // unsorted
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.rows()[0].key, other);
  EXPECT_EQ(s.rows()[1].key, third);

  r.counters[idx(PortCounter::kSymbolError)] = 50;
  r.t_s = 5;
  const ReadingResult res = s.apply(r);
  EXPECT_TRUE(res.first);
  EXPECT_EQ(res.delta[idx(PortCounter::kSymbolError)], 0u);
  EXPECT_EQ(s.rows()[1].total[idx(PortCounter::kSymbolError)], 0u);
}

}  // namespace
}  // namespace smd::counter_store_test
