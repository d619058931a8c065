// The PortInfo fields (IBA 14.2.5.6) the SM owns besides addressing and keys: their names, how to read and
// write them in a decoded PortInfo, what the SM wants one port to hold, and the rule by which a port
// holds it. Plain data; the plan that compares and the writer that sends are in smd/program/port_fields_plan.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "mad/codec/port_info.h"

namespace smd {

/// One SM-owned PortInfo field. Order is the order of the `ports:` policy keys.
enum class PortField : std::uint8_t {
  kSubnetTimeOut,        ///< 5 bits, endports
  kMasterSmSl,           ///< 4 bits, endports
  kHoqLife,              ///< 5 bits, switch external ports
  kVlStallCount,         ///< 3 bits, switch external ports
  kLocalPhyErrors,       ///< 4 bits, cabled ports
  kOverrunErrors,        ///< 4 bits, cabled ports
  kLinkWidthEnabled,     ///< 8 bits, cabled ports
  kLinkSpeedEnabled,     ///< 4 bits, cabled ports
  kLinkSpeedExtEnabled,  ///< 5 bits, cabled ports where both ends support extended speeds
};
inline constexpr std::size_t kPortFieldCount = 9;

/// The IBA name ("HOQLife", "SubnetTimeOut", ...).
std::string_view port_field_name(PortField f);
/// The field's value in `pi`.
std::uint8_t port_field(const mad::PortInfo& pi, PortField f);
/// Put `value` into the field of `pi`.
void set_port_field(mad::PortInfo& pi, PortField f, std::uint8_t value);

/// What the SM wants one field of one port to be: the code it writes, and the value a port that holds it
/// reads back. They differ for the codes an SMA interprets (LinkWidthEnabled 255 "set to
/// LinkWidthSupported", LinkSpeedEnabled 15, LinkSpeedExtEnabled 31 and 30).
struct FieldWant {
  std::uint8_t code = 0;
  std::uint8_t reads = 0;
  bool operator==(const FieldWant&) const = default;
};
/// One port's wanted fields; nullopt: the SM leaves that field as the port has it.
using PortFieldWants = std::array<std::optional<FieldWant>, kPortFieldCount>;

/// What the last PortInfo Set this SM sent to a port carried in one field, and what its GetResp showed.
struct FieldAck {
  std::uint8_t code = 0;
  std::uint8_t echoed = 0;
  bool operator==(const FieldAck&) const = default;
};
using PortFieldAcks = std::array<std::optional<FieldAck>, kPortFieldCount>;

/// Whether a port reading `pi` holds `want`: it reads the wanted value, or it still reads what it answered
/// to this SM's Set of the same code (`ack`). The second case is an SMA that does not report the field as
/// written (ibsim does not store SubnetTimeOut, MasterSMSL, VLStallCount or the error thresholds; an SMA
/// that was told "255: set to supported" may still report its old mask), and holds the value as far as the
/// SM can know: it is not written again on every sweep, only once the port reads something else.
bool port_holds(const mad::PortInfo& pi, PortField f, const FieldWant& want, const std::optional<FieldAck>& ack);

}  // namespace smd
