// SA request dispatch: the drop rules, the attribute x method table, response encoding.
#include "smd/sa/sa_dispatch.h"

#include <algorithm>
#include <cstdio>

#include "mad/sa/class_port_info.h"
#include "mad/sa/inform_info.h"
#include "smd/sa/fabric_records.h"
#include "smd/sa/guid_info_records.h"
#include "smd/sa/mcmember_records.h"
#include "smd/sa/mft_records.h"
#include "smd/sa/multi_path_records.h"
#include "smd/sa/path_records.h"
#include "smd/sa/port_gid.h"
#include "smd/sa/port_table_records.h"
#include "smd/sa/service_requests.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

/// One cell of the SA's attribute x method table: what answers `method` on `attr_id`. A handler changes
/// `state` only for the methods that change something (Set, Delete).
using SaHandler = SaAnswer (*)(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s);
struct SaRoute {
  std::uint16_t attr_id;
  std::uint8_t method;
  SaHandler handler;
};

/// A record handler that only reads the snapshot (the fabric's records: Get and GetTable).
using ReadHandler = SaAnswer (*)(const SaSnapshot&, const SaQuery&);
template <ReadHandler H>
SaAnswer read_only(const SaSnapshot& snap, SaState&, const SaQuery& q, std::int64_t) {
  return H(snap, q);
}

/// A port-table record handler (PKeyTable, SL2VL, VLArb): answered from the blocks read so far; blocks
/// not yet read go to state.missing. Without a table cache these records are not served.
using TableHandler = SaAnswer (*)(const SaSnapshot&, const SaQuery&, const TableCache&, std::vector<TableKey>&);
template <TableHandler H>
SaAnswer from_tables(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t) {
  if (!state.tables) return SaAnswer::error(status::kMethodAttrUnsupported);
  return H(snap, q, *state.tables, state.missing);
}

SaAnswer class_port_info(const SaSnapshot& snap, SaState&, const SaQuery&, std::int64_t);

SaAnswer node_records(const SaSnapshot& snap, SaState&, const SaQuery& q, std::int64_t) {
  if (std::optional<SaAnswer> by_alias = node_records_by_alias(snap, q)) return std::move(*by_alias);
  return answer_node_records(snap, q);
}

SaAnswer guid_info_records(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t) {
  return answer_guid_info_records(snap, q, state.aliases);
}

/// GUIDInfoRecord Set or Delete: a changed table is persisted, rebased and written to the port by the agent.
SaAnswer change_guid_info(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t) {
  bool changed = false;
  SaAnswer ans = change_guid_info_record(snap, q, state.aliases, changed, state.alias_why);
  if (changed) {
    state.aliases_changed = true;
    state.alias_bases = state.aliases.bases();
    if (const Endport* e = snap.fabric->by_lid(static_cast<Lid>((q.record[0] << 8) | q.record[1])))
      state.alias_writes.emplace_back(e->guid, q.record[2]);
  }
  return ans;
}

/// MCMemberRecord, every method: McastDb decides; the join and leave counts are the agent's metrics.
SaAnswer mcmember_records(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t) {
  state.mcast_why.clear();
  SaAnswer ans =
      answer_mcmember_records(snap, q, state.mcast, state.mcast_events, state.mcast_changed, state.mcast_why);
  if (ans.status == status::kOk && q.method() == method::kSet) ++state.mcast_joins;
  if (ans.status == status::kOk && q.method() == method::kDelete) ++state.mcast_leaves;
  return ans;
}

/// InformInfo Set: (un)subscribe the requester, known by its GID (zero when its LID is unknown).
SaAnswer subscribe(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t) {
  const Endport* e = snap.fabric->by_lid(q.requester_lid);
  return state.informs.set(q, e ? make_gid(snap.fabric->subnet_prefix(), e->guid) : Gid{});
}

SaAnswer subscriptions(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t) {
  return state.informs.records(q, snap.settings.max_records);
}

/// The attribute x method table (IBA 15.2.5, table 204 "SA attributes"): every pair served, nothing else.
/// What the SA supports, the attributes it knows and ClassPortInfo's capability bits are read from it.
constexpr SaRoute kRoutes[] = {
    {attr::kClassPortInfo, method::kGet, class_port_info},
    {attr::kNodeRecord, method::kGet, node_records},
    {attr::kNodeRecord, method::kGetTable, node_records},
    {attr::kPortInfoRecord, method::kGet, read_only<answer_port_info_records>},
    {attr::kPortInfoRecord, method::kGetTable, read_only<answer_port_info_records>},
    {attr::kLinkRecord, method::kGet, read_only<answer_link_records>},
    {attr::kLinkRecord, method::kGetTable, read_only<answer_link_records>},
    {attr::kSwitchInfoRecord, method::kGet, read_only<answer_switch_info_records>},
    {attr::kSwitchInfoRecord, method::kGetTable, read_only<answer_switch_info_records>},
    {attr::kLftRecord, method::kGet, read_only<answer_lft_records>},
    {attr::kLftRecord, method::kGetTable, read_only<answer_lft_records>},
    {attr::kMftRecord, method::kGet, read_only<answer_mft_records>},
    {attr::kMftRecord, method::kGetTable, read_only<answer_mft_records>},
    {attr::kSmInfoRecord, method::kGet, read_only<answer_sm_info_records>},
    {attr::kSmInfoRecord, method::kGetTable, read_only<answer_sm_info_records>},
    {attr::kPathRecord, method::kGet, read_only<answer_path_records>},
    {attr::kPathRecord, method::kGetTable, read_only<answer_path_records>},
    {attr::kMultiPathRecord, method::kGetMulti, read_only<answer_multi_path_records>},
    {attr::kPKeyTableRecord, method::kGet, from_tables<answer_pkey_table_records>},
    {attr::kPKeyTableRecord, method::kGetTable, from_tables<answer_pkey_table_records>},
    {attr::kSl2VlTableRecord, method::kGet, from_tables<answer_sl2vl_table_records>},
    {attr::kSl2VlTableRecord, method::kGetTable, from_tables<answer_sl2vl_table_records>},
    {attr::kVlArbTableRecord, method::kGet, from_tables<answer_vlarb_table_records>},
    {attr::kVlArbTableRecord, method::kGetTable, from_tables<answer_vlarb_table_records>},
    {attr::kServiceRecord, method::kGet, find_service_records},
    {attr::kServiceRecord, method::kGetTable, find_service_records},
    {attr::kServiceRecord, method::kSet, set_service_record},
    {attr::kServiceRecord, method::kDelete, delete_service_records},
    {attr::kGuidInfoRecord, method::kGet, guid_info_records},
    {attr::kGuidInfoRecord, method::kGetTable, guid_info_records},
    {attr::kGuidInfoRecord, method::kSet, change_guid_info},
    {attr::kGuidInfoRecord, method::kDelete, change_guid_info},
    {attr::kMcMemberRecord, method::kGet, mcmember_records},
    {attr::kMcMemberRecord, method::kGetTable, mcmember_records},
    {attr::kMcMemberRecord, method::kSet, mcmember_records},
    {attr::kMcMemberRecord, method::kDelete, mcmember_records},
    {attr::kInformInfo, method::kSet, subscribe},
    {attr::kInformInfoRecord, method::kGet, subscriptions},
    {attr::kInformInfoRecord, method::kGetTable, subscriptions},
};

SaHandler route(std::uint16_t attr_id, std::uint8_t m) {
  for (const SaRoute& r : kRoutes) {
    if (r.attr_id == attr_id && r.method == m) return r.handler;
  }
  return nullptr;
}

bool known_attr(std::uint16_t attr_id) {
  return std::any_of(std::begin(kRoutes), std::end(kRoutes), [&](const SaRoute& r) { return r.attr_id == attr_id; });
}

/// The methods of the SA class (IBA 15.2.2, table 202). A known method no attribute takes (GetTraceTable:
/// TraceRecord is not served) answers METHOD_ATTR_UNSUPPORTED; any other METHOD_UNSUPPORTED. Report is the
/// SA's own to send, never to answer.
bool known_method(std::uint8_t m) {
  return m == method::kGet || m == method::kSet || m == method::kGetTable || m == method::kDelete ||
         m == method::kGetMulti || m == method::kGetTraceTable;
}

/// IBA 15.2.5.1: the capabilities that follow from the table (MultiPathRecord GetMulti, InformInfo Set,
/// MCMemberRecord Set), and those that say how records are filled, which the handlers hold to.
SaAnswer class_port_info(const SaSnapshot& snap, SaState&, const SaQuery&, std::int64_t) {
  ClassPortInfo cpi;
  cpi.capability_mask = cpi_cap::kIsPortInfoCapMaskMatchSupported;
  if (route(attr::kInformInfo, method::kSet)) cpi.capability_mask |= cpi_cap::kIsSubnetGetSetNoticeSupported;
  if (route(attr::kMultiPathRecord, method::kGetMulti)) cpi.capability_mask |= cpi_cap::kIsMultiPathSupported;
  // Without an SM that programs MFTs (sm.multicast false), a client must not count on UD multicast.
  if (route(attr::kMcMemberRecord, method::kSet) && snap.settings.multicast)
    cpi.capability_mask |= cpi_cap::kIsUdMulticastSupported;
  cpi.capability_mask2 = cpi_cap::kIsFullPortInfoRecordSupported | cpi_cap::kIsExtendedSpeedsSupported |
                         cpi_cap::kIsPortInfoCapMask2MatchSupported | cpi_cap::kIsSendOnlyFullMemberSupported;
  cpi.resp_time_value = snap.settings.resp_time_value;
  return SaAnswer::one(cpi);
}

std::uint8_t response_method(std::uint8_t m) {
  switch (m) {
    case method::kGetTable: return method::kGetTableResp;
    case method::kGetMulti: return method::kGetMultiResp;
    case method::kDelete: return method::kDeleteResp;
    case method::kGetTraceTable: return method::kGetTraceTable | method::kResponseBit;
    default: return method::kGetResp;
  }
}

/// The answer to a request that passed the drop rules: version, method and attribute checks, then the
/// table's handler.
SaAnswer dispatch(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s) {
  if (q.header.class_version != kClassVersion) return SaAnswer::error(status::kBadVersion);
  if (!known_method(q.method())) return SaAnswer::error(status::kMethodUnsupported);
  const SaHandler h = route(q.header.attr_id, q.method());
  if (!known_attr(q.header.attr_id) || !h) return SaAnswer::error(status::kMethodAttrUnsupported);
  return h(snap, state, q, now_s);
}

}  // namespace

std::string attr_name(std::uint16_t a) {
  switch (a) {
    case attr::kClassPortInfo: return "ClassPortInfo";
    case attr::kNotice: return "Notice";
    case attr::kInformInfo: return "InformInfo";
    case attr::kNodeRecord: return "NodeRecord";
    case attr::kPortInfoRecord: return "PortInfoRecord";
    case attr::kSl2VlTableRecord: return "SL2VLTableRecord";
    case attr::kSwitchInfoRecord: return "SwitchInfoRecord";
    case attr::kLftRecord: return "LFTRecord";
    case attr::kMftRecord: return "MFTRecord";
    case attr::kSmInfoRecord: return "SMInfoRecord";
    case attr::kLinkRecord: return "LinkRecord";
    case attr::kGuidInfoRecord: return "GUIDInfoRecord";
    case attr::kServiceRecord: return "ServiceRecord";
    case attr::kPKeyTableRecord: return "PKeyTableRecord";
    case attr::kPathRecord: return "PathRecord";
    case attr::kVlArbTableRecord: return "VLArbTableRecord";
    case attr::kMcMemberRecord: return "MCMemberRecord";
    case attr::kTraceRecord: return "TraceRecord";
    case attr::kMultiPathRecord: return "MultiPathRecord";
    case attr::kInformInfoRecord: return "InformInfoRecord";
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%04x", a);
      return buf;
    }
  }
}

const char* method_name(std::uint8_t m) {
  switch (m) {
    case method::kGet: return "Get";
    case method::kSet: return "Set";
    case method::kReport: return "Report";
    case method::kGetTable: return "GetTable";
    case method::kGetTraceTable: return "GetTraceTable";
    case method::kGetMulti: return "GetMulti";
    case method::kDelete: return "Delete";
    case method::kReportResp: return "ReportResp";
    default: return "other";
  }
}

std::vector<std::uint8_t> encode_response(const SaHeader& req, std::uint8_t resp_method, const SaAnswer& a) {
  SaHeader h = req;
  h.method = resp_method;
  h.status = a.status;
  h.sm_key = 0;
  const bool rmpp = resp_method == method::kGetTableResp || resp_method == method::kGetMultiResp;
  const std::size_t stride = static_cast<std::size_t>(attr_offset_of(a.record_size)) * 8;
  // A single-MAD answer (GetResp, DeleteResp) holds what fits in its 200 data bytes: a Delete that
  // removed several ServiceRecords answers the first of them.
  const std::size_t count = rmpp || stride == 0 ? a.count : std::min(a.count, kDataSize / stride);
  const bool has_records = a.status == status::kOk && count > 0;
  h.attr_offset = has_records ? attr_offset_of(a.record_size) : 0;
  const std::size_t data = has_records ? stride * count : 0;
  h.rmpp = RmppHeader{};
  if (rmpp) {
    h.rmpp.version = 1;
    h.rmpp.type = RmppHeader::kTypeData;
    h.rmpp.flags = RmppHeader::kFlagActive | RmppHeader::kFlagFirst | RmppHeader::kFlagLast;
    h.rmpp.segment_number = 1;
    h.rmpp.payload_length = static_cast<std::uint32_t>(data + 20);
  }
  // An RMPP answer is as long as its records (the kernel pads the last segment; a client counts the
  // records from the length it receives, which is how a one-MAD cut under ibsim's shim stays exact); any
  // other answer is one whole MAD.
  std::vector<std::uint8_t> mad(rmpp ? kHeaderSize + data : kMadSize, 0);
  h.encode(mad);
  if (has_records) {
    for (std::size_t i = 0; i < count; ++i) {
      std::copy_n(a.records.begin() + static_cast<std::ptrdiff_t>(i * a.record_size), a.record_size,
                  mad.begin() + static_cast<std::ptrdiff_t>(kHeaderSize + i * stride));
    }
  }
  return mad;
}

std::vector<std::uint8_t> answer_mad(const SaSnapshot& snap, SaState& state, std::span<const std::uint8_t> mad,
                                     const mad::MadAddress& from, std::int64_t now_s, SaOutcome& outcome) {
  outcome = SaOutcome{};
  state.alias_why.clear();
  state.mcast_why.clear();  // the reason of this request only: an early refusal must not log the last one's
  const std::optional<SaHeader> header = SaHeader::decode(mad);
  if (!header) {
    outcome.why = "short";
    return {};
  }
  outcome.attr_id = header->attr_id;
  outcome.method = header->method;
  if (header->method == method::kReportResp) {
    outcome.kind = SaOutcome::Kind::kReportResp;
    return {};
  }
  if (header->method & method::kResponseBit) {
    outcome.why = "response";
    return {};
  }
  if (!snap.serving || !snap.fabric) {
    outcome.why = "not-serving";
    return {};
  }
  if (header->sm_key != 0 && header->sm_key != snap.settings.key) {
    outcome.why = "bad-sm-key";
    return {};
  }
  SaQuery q;
  q.header = *header;
  q.requester_lid = from.lid;
  q.requester_qpn = from.qpn;
  q.trusted = header->sm_key != 0 && header->sm_key == snap.settings.key;
  q.alias_bases = state.alias_bases.get();
  const std::size_t data = mad.size() > kHeaderSize ? std::min(mad.size() - kHeaderSize, q.record.size()) : 0;
  std::copy_n(mad.begin() + kHeaderSize, data, q.record.begin());

  state.missing.clear();
  const SaAnswer answer = dispatch(snap, state, q, now_s);
  if (!state.missing.empty() && !state.answer_partial) {
    outcome.kind = SaOutcome::Kind::kWaiting;
    return {};
  }
  outcome.kind = SaOutcome::Kind::kAnswered;
  outcome.status = answer.status;
  outcome.records = answer.count;
  outcome.truncated = answer.truncated;
  SaHeader reply = *header;
  // A GetMulti(MultiPathRecord) is answered with PathRecords, and says so (IBA 15.2.5.20).
  if (header->attr_id == attr::kMultiPathRecord && answer.status == status::kOk) reply.attr_id = attr::kPathRecord;
  return encode_response(reply, response_method(header->method), answer);
}

}  // namespace smd::sa
