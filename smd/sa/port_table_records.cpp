// Port table records: enumerate the (port, block) pairs a request can match, look each block up.
#include "smd/sa/port_table_records.h"

#include <algorithm>

#include "mad/sa/table_records.h"
#include "smd/sa/candidate_nodes.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

constexpr std::uint16_t kAttrPKeyTable = 0x0016;
constexpr std::uint16_t kAttrSlToVl = 0x0017;
constexpr std::uint16_t kAttrVlArb = 0x0018;

/// A key field of the request, when its ComponentMask bit is set.
std::optional<std::uint32_t> wanted(const SaQuery& q, const TableRecordKind& kind, int field) {
  if (field < 0 || !(q.mask() & (1ull << field))) return std::nullopt;
  return static_cast<std::uint32_t>(get_field(q.rec(), kind.layout.fields[field]));
}

/// The ports of node n whose tables a record can name: a CA's ports with LIDs, every switch port.
std::vector<PortNum> ports_of(const SaFabric& f, NodeIndex n) {
  std::vector<PortNum> ports;
  const Node& node = f.topo().node(n);
  for (PortNum p = node.is_switch() ? 0 : 1; p <= node.num_ports; ++p) {
    if (!f.port_info(n, p)) continue;
    if (!node.is_switch() && f.record_lid(n, p) == 0) continue;
    ports.push_back(p);
  }
  return ports;
}

/// Look `key` up; a block not read yet is noted as missing.
const mad::SmpData* lookup(const TableCache& cache, const TableKey& key, std::vector<TableKey>& missing) {
  if (const mad::SmpData* d = cache.find(key)) return d;
  if (!cache.gave_up(key)) missing.push_back(key);
  return nullptr;
}

/// Offer the record of `kind` at `lid` with keys (k0, k1) and the first `size` bytes of `payload` (none:
/// an empty table) to `out`.
void offer_record(RecordCollector& out, const TableRecordKind& kind, Lid lid, std::uint32_t k0, std::uint32_t k1,
                  const mad::SmpData* payload, std::size_t size) {
  TableRecord r;
  r.lid = lid;
  r.key[0] = k0;
  r.key[1] = k1;
  if (payload) std::copy_n(payload->begin(), size, r.payload.begin());
  r.encode(kind, out.slot());
  out.offer();
}

/// The records of `kind` that `q` asks for, matched on the keys `matched` sets (q itself, or q with a key
/// the SA fills in cleared). `each_node(n, offer)` names every record candidate node n could hold as
/// offer(lid, key0, key1, block, size): `block` is the table block that holds its payload (nullopt: an
/// empty table, nothing to read) and `size` how many of its bytes the record carries. Records whose keys
/// the request does not want or whose LID is 0 are dropped here, and a block not read yet is noted in
/// `missing`, so the three table kinds differ only in which (port, block) pairs they name.
template <typename EachNode>
SaAnswer answer_table_records(const SaSnapshot& snap, const SaQuery& q, const SaQuery& matched,
                              const TableRecordKind& kind, const TableCache& cache, std::vector<TableKey>& missing,
                              EachNode each_node) {
  const auto want0 = wanted(matched, kind, kind.key_field[0]);
  const auto want1 = wanted(matched, kind, kind.key_field[1]);
  RecordCollector out(kind.layout, matched, snap.settings.max_records);
  const auto offer = [&](Lid lid, std::uint32_t k0, std::uint32_t k1, std::optional<TableKey> block, std::size_t size) {
    if (out.done() || lid == 0 || (want0 && *want0 != k0) || (want1 && *want1 != k1)) return;
    const mad::SmpData* d = nullptr;
    if (block) {
      d = lookup(cache, *block, missing);
      if (!d) return;
    }
    offer_record(out, kind, lid, k0, k1, d, size);
  };
  return collect_per_node(*snap.fabric, q, out, [&](NodeIndex n) { each_node(n, offer); });
}

}  // namespace

bool vlarb_block_has_entries(const mad::PortInfo& pi, unsigned block) {
  const unsigned cap = block <= 2 ? pi.vl_arbitration_low_cap : pi.vl_arbitration_high_cap;
  const unsigned first_entry = (block == 2 || block == 4) ? 32 : 0;
  return block >= 1 && block <= 4 && cap > first_entry;
}

SaAnswer answer_pkey_table_records(const SaSnapshot& snap, const SaQuery& q, const TableCache& cache,
                                   std::vector<TableKey>& missing) {
  if (!q.trusted) return SaAnswer::error(status::kReqInvalid);
  const SaFabric& f = *snap.fabric;
  return answer_table_records(snap, q, q, kPKeyTableRecord, cache, missing, [&](NodeIndex n, const auto& offer) {
    const Node& node = f.topo().node(n);
    const auto& rec = f.observed().nodes[n];
    for (PortNum p : ports_of(f, n)) {
      const Lid lid = f.record_lid(n, p);
      unsigned entries = rec.node_info.partition_cap;
      if (node.is_switch() && p != 0) entries = rec.switch_info ? rec.switch_info->partition_enforcement_cap : 0;
      const unsigned blocks = (entries + 31) / 32;
      for (unsigned b = 0; b < blocks; ++b) {
        const std::uint32_t mod = node.is_switch() ? (b | static_cast<std::uint32_t>(p) << 16) : b;
        offer(lid, b, p, TableKey{lid, kAttrPKeyTable, mod}, mad::kSmpDataSize);
      }
    }
  });
}

SaAnswer answer_sl2vl_table_records(const SaSnapshot& snap, const SaQuery& q, const TableCache& cache,
                                    std::vector<TableKey>& missing) {
  const SaFabric& f = *snap.fabric;
  return answer_table_records(snap, q, q, kSl2VlTableRecord, cache, missing, [&](NodeIndex n, const auto& offer) {
    const Node& node = f.topo().node(n);
    // The record carries 8 bytes: 16 SLs of 4 bits.
    const auto offer_pair = [&](Lid lid, PortNum in, PortNum o) {
      offer(lid, in, o, TableKey{lid, kAttrSlToVl, static_cast<std::uint32_t>(in) << 8 | o}, 8);
    };
    if (node.is_switch()) {
      // Out-port 0 too: the table of the switch's own port (OpenSM lists it; osmtest asks for (0, 0)).
      const Lid lid = f.record_lid(n, 0);
      for (PortNum o = 0; o <= node.num_ports; ++o) {
        for (PortNum i = 0; i <= node.num_ports; ++i) offer_pair(lid, i, o);
      }
    } else {
      for (PortNum p : ports_of(f, n)) offer_pair(f.record_lid(n, p), 0, 0);  // a CA port maps its own traffic
    }
  });
}

SaAnswer answer_vlarb_table_records(const SaSnapshot& snap, const SaQuery& q, const TableCache& cache,
                                    std::vector<TableKey>& missing) {
  const SaFabric& f = *snap.fabric;
  const TableRecordKind& kind = kVlArbTableRecord;
  // A LID that names a CA port names that port: OutputPortNum is the SA's to fill in (IBA 15.2.5.14;
  // OpenSM does, and osmtest asks with port 0), so it is not matched.
  const std::optional<Lid> named_lid = requested_lid(q);
  const Endport* named = named_lid ? f.by_lid(*named_lid) : nullptr;
  const bool ca_named = named && !f.topo().node(named->node).is_switch();
  SaQuery matched = q;
  if (ca_named) matched.header.comp_mask &= ~(1ull << kind.key_field[0]);
  return answer_table_records(snap, q, matched, kind, cache, missing, [&](NodeIndex n, const auto& offer) {
    for (PortNum p : ports_of(f, n)) {
      if (ca_named && p != named->port) continue;
      const mad::PortInfo* pi = f.port_info(n, p);
      if (!pi) continue;
      const Lid lid = f.record_lid(n, p);
      for (unsigned b = 1; b <= 4; ++b) {
        // A block the port holds no entries in (a switch's port 0, a small cap) is an empty table, not read.
        const bool has_entries = vlarb_block_has_entries(*pi, b);
        offer(lid, p, b, has_entries ? std::optional<TableKey>(TableKey{lid, kAttrVlArb, b << 16 | p}) : std::nullopt,
              has_entries ? mad::kSmpDataSize : 0);
      }
    }
  });
}

}  // namespace smd::sa
