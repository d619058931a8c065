// Micro-benchmark of the hot codecs: SMP decode (PortInfo, NodeInfo: every port and node of every sweep),
// SA PathRecord encode (every PathRecord answer), SA header decode (every SA request) and MCMemberRecord
// decode (every join). Prints ns per call, the best of 5 runs of N calls.
// Built and run by bench/codec.sh; a checksum keeps the compiler from dropping the work.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/sa/mcmember_record.h"
#include "mad/sa/path_record.h"
#include "mad/sa/sa_mad.h"

namespace {

template <class F>
double best_ns(unsigned n, F&& f) {
  double best = 1e30;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < n; ++i) f(i);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, ns / n);
  }
  return best;
}

}  // namespace

int main() {
  using namespace smd::mad;
  constexpr unsigned kN = 2'000'000;
  SmpData smp{};
  for (std::size_t i = 0; i < smp.size(); ++i) smp[i] = static_cast<std::uint8_t>(i * 37 + 11);
  std::uint64_t sum = 0;
  const double pi = best_ns(kN, [&](unsigned i) {
    smp[16] = static_cast<std::uint8_t>(i);
    const PortInfo p = PortInfo::decode(smp);
    sum += p.lid + p.lmc + p.port_state + p.link_speed_ext_enabled;
  });
  const double ni = best_ns(kN, [&](unsigned i) {
    smp[12] = static_cast<std::uint8_t>(i);
    const NodeInfo n = NodeInfo::decode(smp);
    sum += n.node_guid + n.vendor_id;
  });
  sa::PathRecord pr;
  pr.service_id = 0x1122334455667788ull;
  pr.dgid = sa::make_gid(0xfe80000000000000ull, 0x0002c90300000001ull);
  pr.sgid = sa::make_gid(0xfe80000000000000ull, 0x0002c90300000002ull);
  pr.flow_label = 0x12345;
  pr.qos_class = 0xabc;
  std::array<std::uint8_t, sa::PathRecord::kSize> rec{};
  const double pe = best_ns(kN, [&](unsigned i) {
    pr.dlid = static_cast<std::uint16_t>(i);
    pr.encode(rec);
    sum += rec[40] + rec[41] + rec[45];
  });
  std::array<std::uint8_t, kMadSize> mad{};
  for (std::size_t i = 0; i < mad.size(); ++i) mad[i] = static_cast<std::uint8_t>(i * 53 + 7);
  const double sh = best_ns(kN, [&](unsigned i) {
    mad[9] = static_cast<std::uint8_t>(i);
    const auto h = sa::SaHeader::decode(mad);
    sum += h->tid + h->comp_mask + h->rmpp.flags;
  });
  const double mc = best_ns(kN, [&](unsigned i) {
    mad[36] = static_cast<std::uint8_t>(i);
    const sa::McMemberRecord m = sa::McMemberRecord::decode(mad);
    sum += m.mlid + m.join_state + m.flow_label + m.mgid[3];
  });
  std::printf(
      "PortInfo::decode %.1f ns\nNodeInfo::decode %.1f ns\nPathRecord::encode %.1f ns\nSaHeader::decode %.1f ns\n"
      "McMemberRecord::decode %.1f ns\n(checksum %llu)\n",
      pi, ni, pe, sh, mc, static_cast<unsigned long long>(sum));
  return 0;
}
