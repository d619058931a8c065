// SA request dispatch: validation, the attribute x method table, response encoding.
#include "smd/sa/sa_dispatch.h"

#include <algorithm>
#include <cstdio>

#include "mad/sa/class_port_info.h"
#include "mad/sa/inform_info.h"
#include "mad/sa/service_record.h"
#include "smd/sa/fabric_records.h"
#include "smd/sa/guid_info_records.h"
#include "smd/sa/mcmember_records.h"
#include "smd/sa/mft_records.h"
#include "smd/sa/multi_path_records.h"
#include "smd/sa/path_records.h"
#include "smd/sa/port_gid.h"
#include "smd/sa/port_table_records.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

SaAnswer class_port_info(const SaSnapshot& snap) {
  ClassPortInfo cpi;
  cpi.capability_mask = cpi_cap::kIsSubnetGetSetNoticeSupported | cpi_cap::kIsPortInfoCapMaskMatchSupported |
                        cpi_cap::kIsMultiPathSupported;
  // Without an SM that programs MFTs (sm.multicast false), a client must not count on UD multicast.
  if (snap.settings.multicast) cpi.capability_mask |= cpi_cap::kIsUdMulticastSupported;
  cpi.capability_mask2 = cpi_cap::kIsFullPortInfoRecordSupported | cpi_cap::kIsExtendedSpeedsSupported |
                         cpi_cap::kIsPortInfoCapMask2MatchSupported | cpi_cap::kIsSendOnlyFullMemberSupported;
  cpi.resp_time_value = snap.settings.resp_time_value;
  SaAnswer a;
  a.record_size = ClassPortInfo::kSize;
  a.records.resize(ClassPortInfo::kSize);
  cpi.encode(a.records);
  a.count = 1;
  return a;
}

/// Record handlers that only read the snapshot: Get and GetTable.
using ReadHandler = SaAnswer (*)(const SaSnapshot&, const SaQuery&);
ReadHandler read_handler(std::uint16_t attr_id) {
  switch (attr_id) {
    case attr::kNodeRecord: return answer_node_records;
    case attr::kPortInfoRecord: return answer_port_info_records;
    case attr::kLinkRecord: return answer_link_records;
    case attr::kSwitchInfoRecord: return answer_switch_info_records;
    case attr::kLftRecord: return answer_lft_records;
    case attr::kMftRecord: return answer_mft_records;
    case attr::kSmInfoRecord: return answer_sm_info_records;
    case attr::kPathRecord: return answer_path_records;
    default: return nullptr;
  }
}

bool known_method(std::uint8_t m) {
  return m == method::kGet || m == method::kSet || m == method::kGetTable || m == method::kDelete ||
         m == method::kGetMulti || m == method::kGetTraceTable || m == method::kReport;
}

bool known_attr(std::uint16_t a) {
  return read_handler(a) != nullptr || a == attr::kClassPortInfo || a == attr::kServiceRecord ||
         a == attr::kMultiPathRecord || a == attr::kPKeyTableRecord || a == attr::kSl2VlTableRecord ||
         a == attr::kVlArbTableRecord || a == attr::kInformInfo || a == attr::kInformInfoRecord ||
         a == attr::kMcMemberRecord || a == attr::kGuidInfoRecord;
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

/// Gid of the port at `lid` (the requester), zero when unknown.
Gid requester_gid(const SaFabric& f, Lid lid) {
  const Endport* e = f.by_lid(lid);
  return e ? make_gid(f.subnet_prefix(), e->guid) : Gid{};
}

/// ServiceRecord Delete. Untrusted: only the requester's own records can match, whatever the template
/// says: a template naming its own GID (either prefix) is kept, any other is replaced by its own GID under
/// each prefix in turn. Answers the records removed, NO_RECORDS when none.
SaAnswer delete_services(SaState& state, const SaQuery& q, std::uint64_t prefix, Guid own_guid, std::int64_t now_s) {
  const Gid asked = ServiceRecord::decode(q.rec()).service_gid();
  std::vector<Gid> forms;
  if (q.trusted || ((q.mask() & sr_mask::kServiceGid) && names_port(asked, prefix, own_guid))) {
    forms.push_back(asked);
  } else {
    for (std::uint64_t p : {prefix, kDefaultGidPrefix, kDefaultGidPrefixByteSwapped}) {
      if (p == prefix && !forms.empty()) continue;  // the subnet prefix is the default one
      forms.push_back(make_gid(p, own_guid));
    }
  }
  SaAnswer all = SaAnswer::error(status::kNoRecords);
  for (const Gid& gid : forms) {
    SaQuery one = q;
    if (!q.trusted) {
      std::copy(gid.begin(), gid.end(), one.record.begin() + 8);
      one.header.comp_mask |= sr_mask::kServiceGid;
    }
    SaAnswer a = state.services.erase(one, now_s);
    if (a.status != status::kOk) continue;
    state.services_changed = true;
    if (all.status != status::kOk) {
      all = std::move(a);
    } else {
      all.records.insert(all.records.end(), a.records.begin(), a.records.end());
      all.count += a.count;
    }
  }
  return all;
}

SaAnswer dispatch(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s) {
  const std::uint16_t a = q.header.attr_id;
  const std::uint8_t m = q.method();
  if (a == attr::kClassPortInfo)
    return m == method::kGet ? class_port_info(snap) : SaAnswer::error(status::kMethodAttrUnsupported);
  if (a == attr::kPKeyTableRecord || a == attr::kSl2VlTableRecord || a == attr::kVlArbTableRecord) {
    if (!state.tables) return SaAnswer::error(status::kMethodAttrUnsupported);
    if (m != method::kGet && m != method::kGetTable) return SaAnswer::error(status::kMethodAttrUnsupported);
    if (a == attr::kPKeyTableRecord) return answer_pkey_table_records(snap, q, *state.tables, state.missing);
    if (a == attr::kSl2VlTableRecord) return answer_sl2vl_table_records(snap, q, *state.tables, state.missing);
    return answer_vlarb_table_records(snap, q, *state.tables, state.missing);
  }
  if (a == attr::kMultiPathRecord) {
    return m == method::kGetMulti ? answer_multi_path_records(snap, q)
                                  : SaAnswer::error(status::kMethodAttrUnsupported);
  }
  if (ReadHandler h = read_handler(a)) {
    if (m != method::kGet && m != method::kGetTable) return SaAnswer::error(status::kMethodAttrUnsupported);
    if (a == attr::kNodeRecord) {
      if (std::optional<SaAnswer> by_alias = node_records_by_alias(snap, q)) return std::move(*by_alias);
    }
    return h(snap, q);
  }
  if (a == attr::kServiceRecord) {
    // A service registered under a partition is that partition's: an untrusted requester sees it and
    // registers under it only when it holds that P_Key (OpenSM: osm_physp_has_pkey). P_Key 0 names none.
    const std::vector<PKey>& held = snap.fabric->requester_pkeys(q.requester_lid);
    const auto holds = [&](std::uint16_t pkey) { return (pkey & 0x7fff) == 0 || holds_pkey(held, pkey); };
    if (m == method::kGet || m == method::kGetTable) {
      return q.trusted ? state.services.find(q, now_s, snap.settings.max_records)
                       : state.services.find(q, now_s, snap.settings.max_records, holds);
    }
    // A port registers and removes its own services; another port's need the SM_Key (IBA 15.2.5.14 leaves
    // it to the SA; without it any port could delete or hijack every service on the subnet). Its own GID
    // is its GUID under the subnet prefix or the default fe80:: (port_gid.h); the record keeps the GID given.
    const SaFabric& f = *snap.fabric;
    const std::uint64_t prefix = f.subnet_prefix();
    const Endport* from = f.by_lid(q.requester_lid);
    const Guid own_guid = from ? from->guid : 0;
    if (m == method::kSet) {
      const ServiceRecord rec = ServiceRecord::decode(q.rec());
      if (!q.trusted && !names_port(rec.service_gid(), prefix, own_guid)) return SaAnswer::error(status::kDenied);
      if (!q.trusted && !holds(rec.service_pkey())) return SaAnswer::error(status::kReqInvalid);
      SaAnswer ans = state.services.set(q, now_s, [&](const Gid& gid) {
        return subnet_gid_prefix(gid_prefix(gid), prefix) && f.by_guid(gid_guid(gid)) != nullptr;
      });
      if (ans.status == status::kOk) state.services_changed = true;
      return ans;
    }
    if (m == method::kDelete) return delete_services(state, q, prefix, own_guid, now_s);
    return SaAnswer::error(status::kMethodAttrUnsupported);
  }
  if (a == attr::kGuidInfoRecord) {
    if (m == method::kGet || m == method::kGetTable) return answer_guid_info_records(snap, q, state.aliases);
    if (m != method::kSet && m != method::kDelete) return SaAnswer::error(status::kMethodAttrUnsupported);
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
  if (a == attr::kMcMemberRecord) {
    const std::uint64_t joins_before = state.mcast_joins;
    state.mcast_why.clear();
    SaAnswer ans =
        answer_mcmember_records(snap, q, state.mcast, state.mcast_events, state.mcast_changed, state.mcast_why);
    if (ans.status == status::kOk && m == method::kSet) state.mcast_joins = joins_before + 1;
    if (ans.status == status::kOk && m == method::kDelete) ++state.mcast_leaves;
    return ans;
  }
  if (a == attr::kInformInfo) {
    if (m != method::kSet) return SaAnswer::error(status::kMethodAttrUnsupported);
    return state.informs.set(q, requester_gid(*snap.fabric, q.requester_lid));
  }
  if (a == attr::kInformInfoRecord) {
    if (m != method::kGet && m != method::kGetTable) return SaAnswer::error(status::kMethodAttrUnsupported);
    return state.informs.records(q, snap.settings.max_records);
  }
  return SaAnswer::error(status::kMethodAttrUnsupported);
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

  SaAnswer answer;
  if (header->class_version != kClassVersion) {
    answer = SaAnswer::error(status::kBadVersion);
  } else if (!known_method(header->method) || header->method == method::kReport) {
    answer = SaAnswer::error(status::kMethodUnsupported);
  } else if (!known_attr(header->attr_id)) {
    answer = SaAnswer::error(status::kMethodAttrUnsupported);
  } else {
    state.missing.clear();
    answer = dispatch(snap, state, q, now_s);
    if (!state.missing.empty() && !state.answer_partial) {
      outcome.kind = SaOutcome::Kind::kWaiting;
      return {};
    }
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
