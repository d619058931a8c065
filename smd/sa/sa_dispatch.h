// The SA's request rules (IBA vol. 1, 15.4 and 13.4): which MADs are answered, with which method and
// status, and how the records go into the answer. Pure: the agent (sa_agent.h) does the threads and I/O.
//
//   not serving (not MASTER, or before the first complete sweep) -> dropped (C15-0.1.3)
//   a response (R bit) other than ReportResp, or a ReportResp     -> not answered (the agent retires Reports)
//   SM_Key neither 0 nor sa.key                                  -> dropped (C15-0.1.4); answers carry 0
//   class version other than 2                                   -> BAD_VERSION
//   unknown method                                               -> METHOD_UNSUPPORTED
//   unknown attribute, or a method the attribute does not take   -> METHOD_ATTR_UNSUPPORTED
//   Get: 1 record, NO_RECORDS (0x0300) for none, TOO_MANY_RECORDS (0x0400) for several
//   GetTable: every record, status 0 even for none; AttributeOffset = record size in 8-byte words
//             (0 when there are no records); RMPP header DATA, Active|First|Last, PayloadLength 20 + data
//   GetMulti (MultiPathRecord only) answers GetMultiResp with PathRecords, RMPP as GetTable
//   Set answers GetResp, Delete answers DeleteResp
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mad/transport/mad_channel.h"
#include "smd/sa/alias_guids.h"
#include "smd/sa/inform_db.h"
#include "smd/sa/mcast_db.h"
#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/sa/service_db.h"
#include "smd/sa/table_cache.h"

namespace smd::sa {

/// The SA's mutable state: registered services and event subscriptions. Owned by the SA thread.
struct SaState {
  ServiceDb services;
  InformDb informs;
  bool services_changed = false;  ///< set by a Set/Delete/expiry; the agent persists and clears it
  /// The port tables read so far (PKeyTable, SL2VL, VLArb records); null: those records are not served.
  const TableCache* tables = nullptr;
  /// Out: the blocks an answer still needs (answer_mad then answers nothing, outcome kWaiting) ...
  std::vector<TableKey> missing;
  /// ... unless this is set: answer with the records whose blocks are in.
  bool answer_partial = false;
  /// Multicast groups (MCMemberRecord).
  McastDb mcast;
  bool mcast_changed = false;            ///< set by a join/leave that changed something; the agent clears it
  std::vector<McastEvent> mcast_events;  ///< groups created/deleted (traps 66/67); the agent takes them
  std::string mcast_why;                 ///< why the last MCMemberRecord request failed, for the log
  std::uint64_t mcast_joins = 0;         ///< successful joins (Set) so far
  std::uint64_t mcast_leaves = 0;        ///< successful leaves (Delete) so far
  /// Alias GUIDs (GUIDInfoRecord Set/Delete).
  AliasGuidTable aliases;
  bool aliases_changed = false;  ///< set by a Set/Delete that changed the table; the agent persists and clears it
  std::vector<std::pair<Guid, unsigned>> alias_writes;  ///< (port GUID, block) changed; the agent writes the port
  std::string alias_why;         ///< why the last GUIDInfoRecord Set/Delete was refused (in part), for the log
  /// alias -> port GUID as of the last change (what PathRecord and NodeRecord resolve alias GIDs with); the
  /// agent hands it to the receive thread's state too.
  std::shared_ptr<const AliasBases> alias_bases;
};

/// What became of one MAD, for metrics and logs.
struct SaOutcome {
  enum class Kind : std::uint8_t { kAnswered, kDropped, kReportResp, kWaiting };
  Kind kind = Kind::kDropped;
  const char* why = "";  ///< kDropped: "not-serving", "bad-sm-key", "response", "short"
  std::uint16_t attr_id = 0;
  std::uint8_t method = 0;
  std::uint16_t status = 0;
  std::size_t records = 0;
  bool truncated = false;
};

/// Answer one SA MAD received from `from`. Returns the response MAD (256 bytes, or for a GetTable answer
/// the RMPP transfer: the header and every record, as long as they are), or an empty vector when nothing
/// is to be sent (see `outcome`).
std::vector<std::uint8_t> answer_mad(const SaSnapshot& snap, SaState& state, std::span<const std::uint8_t> mad,
                                     const mad::MadAddress& from, std::int64_t now_s, SaOutcome& outcome);

/// The response MAD for request header `req`: method `method`, the answer's status and records.
std::vector<std::uint8_t> encode_response(const mad::sa::SaHeader& req, std::uint8_t method, const SaAnswer& a);

/// Short name of an SA attribute ID ("PathRecord"), "0x...." for others.
std::string attr_name(std::uint16_t attr_id);
/// Short name of an SA method ("GetTable").
const char* method_name(std::uint8_t method);

}  // namespace smd::sa
