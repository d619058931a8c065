// GUIDInfoRecord handlers over the frozen fabric and the SA thread's AliasGuidTable.
#include "smd/sa/guid_info_records.h"

#include <spdlog/fmt/fmt.h>

#include "mad/codec/bits.h"
#include "mad/sa/table_records.h"
#include "smd/sa/fabric_records.h"

namespace smd::sa {

using namespace mad::sa;
namespace bits = mad::bits;

namespace {

/// The GUIDCap the port reported (entries of its GUID table); 0 when its PortInfo was not read.
unsigned guid_cap(const SaFabric& f, const Endport& e) {
  const mad::PortInfo* pi = f.port_info(e.node, e.port);
  return pi ? pi->guid_cap : 0;
}

void encode_block(Lid lid, unsigned block, const std::array<Guid, kGuidsPerBlock>& guids,
                  std::span<std::uint8_t> slot) {
  TableRecord r;
  r.lid = lid;
  r.key[0] = block;
  for (unsigned i = 0; i < kGuidsPerBlock; ++i) bits::put64(r.payload.data(), i * 8, guids[i]);
  r.encode(kGuidInfoRecord, slot);
}

}  // namespace

SaAnswer answer_guid_info_records(const SaSnapshot& snap, const SaQuery& q, const AliasGuidTable& aliases) {
  const SaFabric& f = *snap.fabric;
  RecordCollector out(kGuidInfoRecord.layout, q, snap.settings.max_records);
  const auto one = [&](const Endport& e) {
    for (unsigned b : aliases.blocks(e.guid)) {
      encode_block(e.base_lid, b, aliases.block(e.guid, b), out.slot());
      out.offer();
      if (out.done()) return;
    }
  };
  if (q.mask() & gir_mask::kLid) {
    if (const Endport* e = f.by_lid(bits::get16(q.record.data(), 0))) one(*e);
  } else {
    for (const Endport& e : f.endports()) {
      one(e);
      if (out.done()) break;
    }
  }
  return std::move(out).finish();
}

std::optional<SaAnswer> node_records_by_alias(const SaSnapshot& snap, const SaQuery& q) {
  constexpr std::uint64_t kPortGuidBit = 1ull << 8;  // NodeInfo:PortGUID, record bytes 24..31
  constexpr std::size_t kPortGuidAt = 24;
  if (!q.alias_bases || !(q.mask() & kPortGuidBit)) return std::nullopt;
  const Guid asked = bits::get64(q.record.data(), kPortGuidAt);
  const auto it = q.alias_bases->find(asked);
  if (it == q.alias_bases->end()) return std::nullopt;
  SaQuery base = q;
  bits::put64(base.record.data(), kPortGuidAt, it->second);
  SaAnswer a = answer_node_records(snap, base);
  for (std::size_t i = 0; i < a.count; ++i) bits::put64(a.records.data() + i * a.record_size, kPortGuidAt, asked);
  return a;
}

SaAnswer change_guid_info_record(const SaSnapshot& snap, const SaQuery& q, AliasGuidTable& aliases, bool& changed,
                                 std::string& why) {
  changed = false;
  why.clear();
  const bool set = q.method() == method::kSet;
  const char* verb = set ? "Set" : "Delete";
  if ((q.mask() & (gir_mask::kLid | gir_mask::kBlockNum)) != (gir_mask::kLid | gir_mask::kBlockNum)) {
    why = fmt::format("GUIDInfoRecord {} from lid {}: ComponentMask 0x{:x} lacks LID and BlockNum", verb,
                      q.requester_lid, q.mask());
    return SaAnswer::error(status::kInsufficientComponents);
  }
  const SaFabric& f = *snap.fabric;
  const TableRecord rec = TableRecord::decode(kGuidInfoRecord, q.rec());
  const Endport* port = f.by_lid(rec.lid);
  if (!port) {
    why = fmt::format("GUIDInfoRecord {} from lid {}: no port has lid {}", verb, q.requester_lid, rec.lid);
    return SaAnswer::error(status::kNoRecords);
  }
  if (!q.trusted && f.by_lid(q.requester_lid) != port) {
    why = fmt::format("GUIDInfoRecord {} from lid {} for lid {} denied: not its own port and no SM_Key", verb,
                      q.requester_lid, rec.lid);
    return SaAnswer::error(status::kDenied);
  }
  const auto mask = static_cast<std::uint8_t>((q.mask() >> gir_mask::kFirstGuidBit) & 0xFF);
  std::array<Guid, kGuidsPerBlock> guids{};
  for (unsigned i = 0; i < kGuidsPerBlock; ++i) guids[i] = bits::get64(rec.payload.data(), i * 8);
  const unsigned cap = guid_cap(f, *port);
  const AliasChange c =
      set ? aliases.set(port->guid, cap, rec.key[0], mask, guids, [&](Guid g) { return f.by_guid(g) != nullptr; })
          : aliases.erase(port->guid, cap, rec.key[0], mask);
  if (c.status != status::kOk) {
    why = fmt::format("GUIDInfoRecord {} from lid {} for port 0x{:016x} block {}: {} (GUIDCap {})", verb,
                      q.requester_lid, port->guid, rec.key[0], status_name(c.status), cap);
    return SaAnswer::error(c.status);
  }
  for (const AliasChange::Refused& r : c.refused) {
    why += fmt::format("{}GUIDInfoRecord Set from lid {} for port 0x{:016x} entry {} answered 0: {}",
                       why.empty() ? "" : "; ", q.requester_lid, port->guid, r.index, r.why);
  }
  changed = c.changed;
  SaAnswer a;
  a.record_size = static_cast<std::uint16_t>(kGuidInfoRecord.layout.size);
  a.records.resize(a.record_size);
  encode_block(port->base_lid, rec.key[0], c.block, a.records);
  a.count = 1;
  return a;
}

}  // namespace smd::sa
