// PathRecord answers: endpoint resolution, the LFT walk of each LID pair, and the selectors.
#include "smd/sa/path_records.h"

#include <algorithm>
#include <vector>

#include "mad/sa/path_record.h"
#include "smd/sa/partition_rules.h"
#include "smd/sa/port_gid.h"
#include "smd/sa/rate.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

/// One side of a query: the endports it may be, and the one LID it names (0 = any of theirs).
struct Side {
  std::vector<const Endport*> ports;
  Lid lid = 0;
  std::uint16_t status = status::kOk;  ///< kInvalidGid, or kOk
  Guid alias = 0;                      ///< the alias GUID the GID named (the records carry it), 0: none
};

/// The endport a GID's GUID names: a port GUID, or an alias GUID of a port (GUIDInfoRecord Set).
const Endport* by_port_or_alias(const SaFabric& f, Guid guid, const std::unordered_map<Guid, Guid>* aliases) {
  if (const Endport* e = f.by_guid(guid)) return e;
  if (!aliases) return nullptr;
  const auto it = aliases->find(guid);
  return it == aliases->end() ? nullptr : f.by_guid(it->second);
}

Side resolve(const SaFabric& f, bool has_gid, const Gid& gid, bool has_lid, Lid lid,
             const std::unordered_map<Guid, Guid>* aliases) {
  Side side;
  const Endport* by_gid = nullptr;
  if (has_gid) {
    const std::uint64_t prefix = gid_prefix(gid);
    if (prefix != f.subnet_prefix() && prefix != kDefaultGidPrefix) {
      side.status = status::kInvalidGid;
      return side;
    }
    by_gid = by_port_or_alias(f, gid_guid(gid), aliases);
    if (!by_gid) {
      side.status = status::kInvalidGid;
      return side;
    }
    if (by_gid->guid != gid_guid(gid)) side.alias = gid_guid(gid);
  }
  if (has_lid) {
    const Endport* by_lid = f.by_lid(lid);
    if (!by_lid || (by_gid && by_gid != by_lid)) return side;  // no such port: no path
    side.ports.push_back(by_lid);
    side.lid = lid;
    return side;
  }
  if (by_gid) {
    side.ports.push_back(by_gid);
    return side;
  }
  side.ports.reserve(f.endports().size());
  for (const Endport& e : f.endports()) side.ports.push_back(&e);
  return side;
}

void lids_of(const Endport& e, Lid fixed, std::vector<Lid>& lids) {
  lids.clear();
  if (fixed != 0) {
    lids.push_back(fixed);
    return;
  }
  for (unsigned i = 0; i < (1u << e.lmc); ++i) lids.push_back(static_cast<Lid>(e.base_lid + i));
}

/// What a walked path carries.
struct PathProps {
  std::uint8_t mtu = 0;
  std::uint8_t rate = 0;
};

void fold_port(const SaFabric& f, NodeIndex n, PortNum p, PathProps& props) {
  const std::uint8_t mtu = f.mtu_cap(n, p);
  const std::uint8_t rate = f.rate(n, p);
  if (mtu != 0) props.mtu = props.mtu == 0 ? mtu : std::min(props.mtu, mtu);
  if (rate != 0) props.rate = props.rate == 0 ? rate : slower_rate(props.rate, rate);
}

/// The path's MTU and rate, or nullopt when the LFTs do not deliver `dlid` from `src` to `dst`.
std::optional<PathProps> walk_path(const SaFabric& f, const Endport& src, Lid dlid, const Endport& dst,
                                   std::vector<SaFabric::Hop>& hops) {
  if (!f.walk(src, dlid, dst, hops)) return std::nullopt;
  PathProps props;
  const bool src_is_switch = f.topo().node(src.node).is_switch();
  const bool dst_is_switch = f.topo().node(dst.node).is_switch();
  if (!src_is_switch) fold_port(f, src.node, src.port, props);
  for (const SaFabric::Hop& h : hops) {
    // A switch's port 0 is not a link; its PortInfo says nothing about what the path carries.
    if (h.in_port != 0) fold_port(f, h.node, h.in_port, props);
    if (h.out_port != 0) fold_port(f, h.node, h.out_port, props);
  }
  if (!dst_is_switch) fold_port(f, dst.node, dst.port, props);
  if (props.mtu == 0) props.mtu = 1;    // nothing known: the 256-byte MTU every port supports
  if (props.rate == 0) props.rate = 2;  // and 2.5 Gb/s
  return props;
}

/// A numeric selector (MTU codes and PacketLifeTime codes are ordered by value). nullopt = no path.
std::optional<std::uint8_t> select_ordered(bool given, std::uint8_t sel, std::uint8_t want, std::uint8_t have,
                                           bool can_lower) {
  if (!given) return have;
  // MTU codes run 1 (256) .. 5 (4096): lowering a path's MTU never goes below 1, 0 is no MTU at all.
  switch (sel) {
    case selector::kGreaterThan: return have > want ? std::optional<std::uint8_t>(have) : std::nullopt;
    case selector::kLessThan:
      if (have < want) return have;
      if (can_lower && want > 1) return static_cast<std::uint8_t>(want - 1);
      return std::nullopt;
    case selector::kExactly:
      if (have == want) return have;
      if (can_lower && have > want && want >= 1) return want;
      return std::nullopt;
    default: return have;  // largest available
  }
}

std::optional<std::uint8_t> select_rate(bool given, std::uint8_t sel, std::uint8_t want, std::uint8_t have) {
  if (!given) return have;
  const unsigned h = rate_half_gbps(have);
  const unsigned w = rate_half_gbps(want);
  if (w == 0 && sel != selector::kLargest) return std::nullopt;  // not a rate code: no path is compared to it
  switch (sel) {
    case selector::kGreaterThan: return h > w ? std::optional<std::uint8_t>(have) : std::nullopt;
    case selector::kLessThan: {
      if (h < w) return have;
      const std::uint8_t lower = next_slower_rate(want);
      return lower != 0 ? std::optional<std::uint8_t>(lower) : std::nullopt;
    }
    case selector::kExactly: return h >= w && w != 0 ? std::optional<std::uint8_t>(want) : std::nullopt;
    default: return have;
  }
}

/// What the request asks of every path, read once: the template, its mask, and the values it fixes.
struct PathAsk {
  const SaSnapshot& snap;
  const SaFabric& f;
  std::uint64_t m;
  const PathRecord& want;
  const Side& src;
  const Side& dst;
};

/// The (SLID, DLID) pairs of two endports in answer order: distinct-LID pairs first (preference 0, one
/// per LMC path), then every other combination (preference 2). Returns how many pairs are distinct.
std::size_t lid_pairs(const std::vector<Lid>& slids, const std::vector<Lid>& dlids,
                      std::vector<std::pair<Lid, Lid>>& pairs) {
  pairs.clear();
  const std::size_t distinct = std::min(slids.size(), dlids.size());
  for (std::size_t i = 0; i < distinct; ++i) pairs.emplace_back(slids[i], dlids[i]);
  for (std::size_t i = 0; i < slids.size(); ++i) {
    for (std::size_t j = 0; j < dlids.size(); ++j) {
      if (i != j || i >= distinct) pairs.emplace_back(slids[i], dlids[j]);
    }
  }
  return distinct;
}

/// Scratch vectors reused over every pair of one request.
struct PathScratch {
  std::vector<SaFabric::Hop> hops;
  std::vector<SaFabric::Hop> back;
  std::vector<Lid> slids;
  std::vector<Lid> dlids;
  std::vector<std::pair<Lid, Lid>> pairs;
};

/// The record of the path from `s` at `slid` to `d` at `dlid` under QoS `level` with P_Key `pkey`, nullopt
/// when the LFTs do not carry it or its MTU, rate, lifetime, SL or reversibility miss what was asked.
std::optional<PathRecord> path_record(const PathAsk& a, const Endport& s, Lid slid, const Endport& d, Lid dlid,
                                      const QosLevel* level, PKey pkey, PathScratch& x) {
  const SaFabric& f = a.f;
  const std::uint64_t m = a.m;
  const PathRecord& want = a.want;
  const bool loopback = &s == &d;
  std::optional<PathProps> props =
      loopback ? PathProps{f.mtu_cap(s.node, s.port), f.rate(s.node, s.port)} : walk_path(f, s, dlid, d, x.hops);
  if (!props) return std::nullopt;
  if (loopback) {
    if (props->mtu == 0) props->mtu = 1;
    if (props->rate == 0) props->rate = 2;
  }
  const bool reversible = loopback || walk_path(f, d, slid, s, x.back).has_value();
  if ((m & pr_mask::kReversible) && want.reversible && !reversible) return std::nullopt;
  // SL: the request's, else the QoS level's, else 0; then the routing engine's, which a request that
  // fixed another SL cannot override (OpenSM ERR 1F2A: no record).
  std::uint8_t sl = (m & pr_mask::kSl) ? want.sl : level && level->sl ? *level->sl : 0;
  if (a.snap.path_sl) {
    if (auto engine_sl = a.snap.path_sl(slid, dlid)) {
      if ((m & pr_mask::kSl) && *engine_sl != want.sl) return std::nullopt;
      sl = *engine_sl;
    }
  }
  // The level caps what the path carries before the selectors compare against it.
  const bool original_rates = a.snap.settings.original_rates_only;
  if (level && level->mtu_limit) props->mtu = std::min(props->mtu, *level->mtu_limit);
  if (level && level->rate_limit) props->rate = slower_rate(props->rate, *level->rate_limit);
  if (original_rates) props->rate = original_rate_code(props->rate);
  const auto mtu = select_ordered((m & pr_mask::kMtu) != 0, (m & pr_mask::kMtuSelector) ? want.mtu_selector : 2,
                                  want.mtu, props->mtu, /*can_lower=*/true);
  const auto rate = select_rate((m & pr_mask::kRate) != 0, (m & pr_mask::kRateSelector) ? want.rate_selector : 2,
                                want.rate, props->rate);
  const std::uint8_t life = a.snap.settings.packet_lifetime;
  const std::uint8_t path_life = loopback ? 0 : level && level->packet_life ? *level->packet_life : life;
  const auto lifetime = select_ordered((m & pr_mask::kPacketLife) != 0,
                                       (m & pr_mask::kPacketLifeSelector) ? want.packet_life_selector : 2,
                                       want.packet_life, path_life, /*can_lower=*/false);
  if (!mtu || !rate || !lifetime) return std::nullopt;

  PathRecord r;
  r.service_id = (m & pr_mask::kServiceId) ? want.service_id : 0;
  // A path asked by an alias GID answers with that GID: the VF's own address (IBA 15.2.5.16).
  r.sgid = make_gid(f.subnet_prefix(), a.src.alias ? a.src.alias : s.guid);
  r.dgid = make_gid(f.subnet_prefix(), a.dst.alias ? a.dst.alias : d.guid);
  r.slid = slid;
  r.dlid = dlid;
  r.flow_label = (m & pr_mask::kFlowLabel) ? want.flow_label : 0;
  r.hop_limit = (m & pr_mask::kHopLimit) ? want.hop_limit : 0;
  r.tclass = (m & pr_mask::kTClass) ? want.tclass : 0;
  r.qos_class = (m & pr_mask::kQosClass) ? want.qos_class : 0;
  r.reversible = reversible;
  r.numb_path = 0;
  r.pkey = pkey;
  r.sl = sl;
  r.mtu_selector = selector::kExactly;
  r.mtu = *mtu;
  r.rate_selector = selector::kExactly;
  // A "less than" selector may have stepped down to a newer code: that one is mapped down too.
  r.rate = original_rates ? original_rate_code(*rate) : *rate;
  r.packet_life_selector = selector::kExactly;
  r.packet_life = *lifetime;
  return r;
}

}  // namespace

SaAnswer answer_path_records(const SaSnapshot& snap, const SaQuery& q) {
  const SaFabric& f = *snap.fabric;
  const std::uint64_t m = q.mask();
  const PathRecord want = PathRecord::decode(q.rec());
  if (((m & mask_bit(PathRecordField::kServiceIdMsb)) != 0) != ((m & mask_bit(PathRecordField::kServiceIdLsb)) != 0)) {
    return SaAnswer::error(status::kInsufficientComponents);
  }
  const Side src = resolve(f, m & mask_bit(PathRecordField::kSgid), want.sgid, m & mask_bit(PathRecordField::kSlid),
                           want.slid, q.alias_bases);
  if (src.status != status::kOk) return SaAnswer::error(src.status);
  const Side dst = resolve(f, m & mask_bit(PathRecordField::kDgid), want.dgid, m & mask_bit(PathRecordField::kDlid),
                           want.dlid, q.alias_bases);
  if (dst.status != status::kOk) return SaAnswer::error(dst.status);
  const PathAsk ask{snap, f, m, want, src, dst};
  unsigned numb_path = (m & pr_mask::kNumbPath) && want.numb_path != 0 ? want.numb_path : 0x7F;
  if (q.method() == method::kGet) numb_path = 1;
  const std::optional<PKey> wanted_pkey = (m & pr_mask::kPKey) ? std::optional<PKey>(want.pkey) : std::nullopt;
  // What the QoS rules match on: the query's P_Key and ServiceID only when its ComponentMask carries them.
  const std::optional<std::uint64_t> wanted_service_id =
      (m & pr_mask::kServiceId) == pr_mask::kServiceId ? std::optional<std::uint64_t>(want.service_id) : std::nullopt;
  const std::vector<PKey>& requester_pkeys = f.requester_pkeys(q.requester_lid);

  RecordCollector out(kPathRecordLayout, q, snap.settings.max_records);
  PathScratch x;
  for (const Endport* s : ask.src.ports) {
    const std::vector<PKey>& src_pkeys = f.pkeys(s->guid);
    if (!visible_to(requester_pkeys, src_pkeys, q.trusted)) continue;
    for (const Endport* d : ask.dst.ports) {
      const std::vector<PKey>& dst_pkeys = f.pkeys(d->guid);
      if (!visible_to(requester_pkeys, dst_pkeys, q.trusted)) continue;
      const QosLevel* level = snap.qos ? snap.qos->match(s->guid, d->guid, wanted_pkey, wanted_service_id) : nullptr;
      // A requested SL must be the level's, when the level fixes one (OpenSM: no record otherwise).
      if (level && level->sl && (m & pr_mask::kSl) && want.sl != *level->sl) continue;
      // IBA 15.2.5.16: a path exists only inside a partition both ends share (limited-limited is none).
      const std::optional<PKey> pkey =
          path_pkey(src_pkeys, dst_pkeys, wanted_pkey, level ? std::span(level->pkeys) : std::span<const PKey>{});
      if (!pkey) continue;
      lids_of(*s, ask.src.lid, x.slids);
      lids_of(*d, ask.dst.lid, x.dlids);
      const std::size_t distinct = lid_pairs(x.slids, x.dlids, x.pairs);
      unsigned given = 0;
      for (std::size_t k = 0; k < x.pairs.size() && given < numb_path && !out.done(); ++k) {
        const auto [slid, dlid] = x.pairs[k];
        std::optional<PathRecord> r = path_record(ask, *s, slid, *d, dlid, level, *pkey, x);
        if (!r) continue;
        r->preference = k < distinct ? 0 : 2;
        r->encode(out.slot());
        out.keep();
        ++given;
      }
      if (out.done()) break;
    }
    if (out.done()) break;
  }
  return std::move(out).finish();
}

}  // namespace smd::sa
