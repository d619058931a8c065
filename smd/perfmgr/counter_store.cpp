// CounterStore: see counter_store.h.
#include "smd/perfmgr/counter_store.h"

#include <algorithm>

#include "smd/perfmgr/counter_delta.h"

namespace smd {
namespace {

constexpr std::size_t kXmitWait = static_cast<std::size_t>(PortCounter::kPortXmitWait);

/// Width of data counter `i` as smd keeps it: 64 bits from PortCountersExtended; from PortCounters 32 bits
/// of words (2^34 octets) for the data counters and 32 bits for the packet counters.
unsigned data_width(std::size_t i, bool extended) {
  if (extended) return 64;
  const bool octets =
      i == static_cast<std::size_t>(DataCounter::kXmitData) || i == static_cast<std::size_t>(DataCounter::kRcvData);
  return octets ? 34 : 32;
}

}  // namespace

CounterSelectBits counter_select_bits(std::uint32_t mask) {
  CounterSelectBits bits;
  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    if ((mask & (1u << i)) == 0) continue;
    if (i == kXmitWait) {
      bits.select2 |= kSelect2XmitWait;
    } else {
      bits.select = static_cast<std::uint16_t>(bits.select | (1u << i));
    }
  }
  return bits;
}

ReadingResult CounterStore::apply(const PortReading& r) {
  ReadingResult res;
  auto [it, inserted] = ports_.try_emplace(r.key);
  PortState& st = it->second;
  PortCounterRow& row = st.row;
  res.first = inserted;

  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    const unsigned width = kPortCounterInfo[i].width_bits;
    const std::uint64_t now = r.counters[i] & counter_max(width);
    if (now == counter_max(width)) res.saturated |= 1u << i;
    if (inserted) continue;
    const CounterDelta d = counter_delta(st.base[i], now, width, CounterKind::kSaturating);
    res.delta[i] = d.value;
  }

  const bool rebase_data = inserted || row.extended != r.extended;
  const double dt = r.t_s - st.t_s;
  if (!inserted) res.elapsed_s = dt;
  // PortCountersExtended's 64-bit counters would take decades to wrap at any link speed: one that went down
  // was cleared (by perfquery -R, a reset port), and counts from 0. The 32-bit ones of a PMA without them
  // wrap in minutes; one stuck at all ones (IBA 16.1.3.5 lets them stop there) is cleared like an error counter.
  const CounterKind data_kind = r.extended ? CounterKind::kSaturating : CounterKind::kWrapping;
  for (std::size_t i = 0; i < kDataCounterCount; ++i) {
    std::uint64_t delta = 0;
    if (!rebase_data) delta = counter_delta(st.data_base[i], r.data[i], data_width(i, r.extended), data_kind).value;
    // A total stops at the top rather than wrap: Prometheus reads a counter that goes down as a reset.
    row.data_total[i] = delta > ~std::uint64_t{0} - row.data_total[i] ? ~std::uint64_t{0} : row.data_total[i] + delta;
    row.data_rate[i] = !rebase_data && dt > 0 ? static_cast<std::uint64_t>(static_cast<double>(delta) / dt) : 0;
    st.data_base[i] = r.data[i] & counter_max(data_width(i, r.extended));
  }

  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    row.total[i] = res.delta[i] > ~std::uint64_t{0} - row.total[i] ? ~std::uint64_t{0} : row.total[i] + res.delta[i];
    st.base[i] = r.counters[i] & counter_max(kPortCounterInfo[i].width_bits);
  }
  const CounterSelectBits bits = counter_select_bits(res.saturated);
  res.reset_select = bits.select;
  res.reset_select2 = bits.select2;
  if (!r.extended) {
    for (std::size_t i = 0; i < kDataCounterCount; ++i) {
      // All ones of the 32-bit wire counter (data counters are kept in octets: 4 per word).
      const std::uint64_t stuck = data_width(i, false) == 34 ? std::uint64_t{0xFFFFFFFF} * 4 : 0xFFFFFFFF;
      if (r.data[i] == stuck)
        res.reset_select = static_cast<std::uint16_t>(res.reset_select | (1u << (kDataCounterSelectShift + i)));
    }
  }

  row.key = r.key;
  row.port_guid = r.port_guid;
  row.lid = r.lid;
  row.node_desc = r.node_desc;
  row.peer = r.peer;
  row.extended = r.extended;
  row.raw = r.counters;
  row.last_delta = res.delta;
  row.saturated = res.saturated;
  row.read_at = r.wall;
  st.t_s = r.t_s;
  return res;
}

void CounterStore::cleared(const PortKey& key, std::uint16_t select, std::uint8_t select2) {
  auto it = ports_.find(key);
  if (it == ports_.end()) return;
  PortState& st = it->second;
  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    const bool hit = i == kXmitWait ? (select2 & kSelect2XmitWait) != 0 : (select & (1u << i)) != 0;
    if (hit) st.base[i] = 0;
  }
  for (std::size_t i = 0; i < kDataCounterCount; ++i) {
    if ((select & (1u << (kDataCounterSelectShift + i))) != 0) st.data_base[i] = 0;
  }
  ++st.row.resets;
}

void CounterStore::retain(const std::vector<PortKey>& present) {
  std::vector<PortKey> keep = present;
  std::sort(keep.begin(), keep.end());
  std::erase_if(ports_, [&](const auto& kv) { return !std::binary_search(keep.begin(), keep.end(), kv.first); });
}

void CounterStore::clear_totals() {
  for (auto& [key, st] : ports_) {
    st.row.total.fill(0);
    st.row.last_delta.fill(0);
    st.row.data_total.fill(0);
    st.row.data_rate.fill(0);
  }
}

std::vector<PortCounterRow> CounterStore::rows() const {
  std::vector<PortCounterRow> out;
  out.reserve(ports_.size());
  for (const auto& [key, st] : ports_) out.push_back(st.row);
  return out;
}

}  // namespace smd
