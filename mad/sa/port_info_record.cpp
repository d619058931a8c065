// PortInfoRecord codec. PortInfo starts at byte 4, so each PortInfo field of IBA table 150 sits 4 bytes
// later here; the ComponentMask order follows that table, reserved runs counted as fields.
#include "mad/sa/port_info_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr std::size_t kPi = 4;  // PortInfo starts here
constexpr FieldSpan kFields[] = {
    bytes_at(0, 2),         // 0 EndportLID
    bytes_at(2, 1),         // 1 PortNum
    bytes_at(3, 1),         // 2 Options
    bytes_at(kPi + 0, 8),   // 3 M_Key
    bytes_at(kPi + 8, 8),   // 4 GidPrefix
    bytes_at(kPi + 16, 2),  // 5 LID
    bytes_at(kPi + 18, 2),  // 6 MasterSMLID
    bytes_at(kPi + 20, 4),  // 7 CapabilityMask
    bytes_at(kPi + 24, 2),  // 8 DiagCode
    bytes_at(kPi + 26, 2),  // 9 M_KeyLeasePeriod
    bytes_at(kPi + 28, 1),  // 10 LocalPortNum
    bytes_at(kPi + 29, 1),  // 11 LinkWidthEnabled
    bytes_at(kPi + 30, 1),  // 12 LinkWidthSupported
    bytes_at(kPi + 31, 1),  // 13 LinkWidthActive
    at(kPi + 32, 0, 4),     // 14 LinkSpeedSupported
    at(kPi + 32, 4, 4),     // 15 PortState
    at(kPi + 33, 0, 4),     // 16 PortPhysicalState
    at(kPi + 33, 4, 4),     // 17 LinkDownDefaultState
    at(kPi + 34, 0, 2),     // 18 M_KeyProtectBits
    at(kPi + 34, 2, 3),     // 19 reserved
    at(kPi + 34, 5, 3),     // 20 LMC
    at(kPi + 35, 0, 4),     // 21 LinkSpeedActive
    at(kPi + 35, 4, 4),     // 22 LinkSpeedEnabled
    at(kPi + 36, 0, 4),     // 23 NeighborMTU
    at(kPi + 36, 4, 4),     // 24 MasterSMSL
    at(kPi + 37, 0, 4),     // 25 VLCap
    at(kPi + 37, 4, 4),     // 26 InitType
    bytes_at(kPi + 38, 1),  // 27 VLHighLimit
    bytes_at(kPi + 39, 1),  // 28 VLArbitrationHighCap
    bytes_at(kPi + 40, 1),  // 29 VLArbitrationLowCap
    at(kPi + 41, 0, 4),     // 30 InitTypeReply
    at(kPi + 41, 4, 4),     // 31 MTUCap
    at(kPi + 42, 0, 3),     // 32 VLStallCount
    at(kPi + 42, 3, 5),     // 33 HOQLife
    at(kPi + 43, 0, 4),     // 34 OperationalVLs
    at(kPi + 43, 4, 1),     // 35 PartitionEnforcementInbound
    at(kPi + 43, 5, 1),     // 36 PartitionEnforcementOutbound
    at(kPi + 43, 6, 1),     // 37 FilterRawInbound
    at(kPi + 43, 7, 1),     // 38 FilterRawOutbound
    bytes_at(kPi + 44, 2),  // 39 M_KeyViolations
    bytes_at(kPi + 46, 2),  // 40 P_KeyViolations
    bytes_at(kPi + 48, 2),  // 41 Q_KeyViolations
    bytes_at(kPi + 50, 1),  // 42 GUIDCap
    at(kPi + 51, 0, 1),     // 43 ClientReregister
    at(kPi + 51, 1, 2),     // 44 MulticastPKeyTrapSuppressionEnabled
    at(kPi + 51, 3, 5),     // 45 SubnetTimeOut
    at(kPi + 52, 0, 3),     // 46 reserved
    at(kPi + 52, 3, 5),     // 47 RespTimeValue
    at(kPi + 53, 0, 4),     // 48 LocalPhyErrors
    at(kPi + 53, 4, 4),     // 49 OverrunErrors
    bytes_at(kPi + 54, 2),  // 50 MaxCreditHint
    bytes_at(kPi + 56, 1),  // 51 reserved
    bytes_at(kPi + 57, 3),  // 52 LinkRoundTripLatency
    bytes_at(kPi + 60, 2),  // 53 CapabilityMask2
    at(kPi + 62, 0, 4),     // 54 LinkSpeedExtActive
    at(kPi + 62, 4, 4),     // 55 LinkSpeedExtSupported
    at(kPi + 63, 0, 3),     // 56 reserved
    at(kPi + 63, 3, 5),     // 57 LinkSpeedExtEnabled
};
}  // namespace

const RecordLayout kPortInfoRecordLayout{"PortInfoRecord", 0x0012, PortInfoRecord::kSize, kFields};

PortInfoRecord PortInfoRecord::decode(std::span<const std::uint8_t> rec) {
  PortInfoRecord r;
  r.lid = static_cast<std::uint16_t>(get_field(rec, kFields[0]));
  r.port_num = rec[2];
  r.options = rec[3];
  std::copy_n(rec.begin() + kPi, r.port_info.size(), r.port_info.begin());
  return r;
}

void PortInfoRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  put_field(rec, kFields[0], lid);
  rec[2] = port_num;
  rec[3] = options;
  std::copy(port_info.begin(), port_info.end(), rec.begin() + kPi);
}

}  // namespace smd::mad::sa
