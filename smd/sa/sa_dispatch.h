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
#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/sa/sa_state.h"

namespace smd::sa {

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
