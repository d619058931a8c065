// MulticastForwardingTableRecord: enumerate (switch, block, position), fill each block's 32 PortMasks.
#include "smd/sa/mft_records.h"

#include <array>
#include <map>
#include <vector>

#include "mad/codec/bits.h"
#include "mad/sa/table_records.h"
#include "smd/sa/candidate_nodes.h"

namespace smd::sa {

using namespace mad::sa;
namespace bits = mad::bits;

namespace {

constexpr Lid kFirstMlid = 0xC000;
constexpr unsigned kEntriesPerBlock = 32;
constexpr std::uint64_t kPositionBit = 1u << 1, kBlockBit = 1u << 3;

/// The 64-byte MulticastForwardingTable block `block` at `position` of a switch whose masks are `masks`:
/// entry i is MLID 0xC000 + 32 * block + i, 16 bits big-endian, bit j = port 16 * position + j.
std::array<std::uint8_t, 64> mft_block(const std::map<Lid, McastPortMask>* masks, unsigned block, unsigned position) {
  std::array<std::uint8_t, 64> out{};
  if (!masks) return out;
  const auto first = static_cast<Lid>(kFirstMlid + block * kEntriesPerBlock);
  for (auto it = masks->lower_bound(first); it != masks->end() && it->first < first + kEntriesPerBlock; ++it) {
    const unsigned i = it->first - first;
    const std::uint16_t word = it->second.words[position];
    out[2 * i] = static_cast<std::uint8_t>(word >> 8);
    out[2 * i + 1] = static_cast<std::uint8_t>(word);
  }
  return out;
}

}  // namespace

SaAnswer answer_mft_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  RecordCollector out(kMftRecord.layout, q, snap.settings.max_records);
  if (!snap.mfts || snap.mfts->highest_mlid < kFirstMlid) return std::move(out).finish();
  const unsigned last_block = (snap.mfts->highest_mlid - kFirstMlid) / kEntriesPerBlock;
  const std::uint16_t key = bits::get16(q.record.data(), 2);
  const bool one_position = (q.mask() & kPositionBit) != 0;
  const bool one_block = (q.mask() & kBlockBit) != 0;
  const unsigned want_position = key >> 12;
  const unsigned want_block = key & 0x1FFu;

  return collect_per_node(f, q, out, [&](NodeIndex n) {
    const Node& node = f.topo().node(n);
    if (!node.is_switch()) return;
    const auto& si = f.observed().nodes[n].switch_info;
    const Lid lid = f.record_lid(n, 0);
    if (!si || si->multicast_fdb_cap == 0 || lid == 0) return;
    const auto sw = snap.mfts->by_switch.find(node.guid);
    const std::map<Lid, McastPortMask>* masks = sw == snap.mfts->by_switch.end() ? nullptr : &sw->second;
    const unsigned last_position = node.num_ports / 16;
    for (unsigned b = 0; b <= last_block && !out.done(); ++b) {
      if (one_block && want_block != b) continue;
      for (unsigned p = 0; p <= last_position && !out.done(); ++p) {
        if (one_position && want_position != p) continue;
        TableRecord r;
        r.lid = lid;
        r.key[0] = p;
        r.key[1] = b;
        r.payload = mft_block(masks, b, p);
        r.encode(kMftRecord, out.slot());
        out.offer();
      }
    }
  });
}

}  // namespace smd::sa
