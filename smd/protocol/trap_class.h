// What a trap means to the SM, decided here and nowhere else. A Notice (IBA vol. 1, 14.2.5.1) that reaches
// the SM is always repressed and forwarded to SA subscribers (13.4.8.3); this says what else it asks for:
// a heavy sweep (from the issuing switch, or of the whole fabric), a count against a misbehaving port
// (health.babbling_port), or nothing. The daemon's trap handler turns the answer into an event; the sweep
// scheduler and the sweep only ever see that event's scope and issuer LID.
//
// The generic trap numbers are the IBA's table of traps (vol. 1, 14.2.5.1): 64-67 come from the SA
// (GIDs and multicast groups), 128-145 from SMAs (links, errors, local changes), 256-259 are key
// violations. Plain numbers here so the rule can sit below smd/sm and smd/sweep without mad/codec.
#pragma once

#include <cstdint>
#include <string_view>

#include "routing/base/ids.h"

namespace smd {

/// Generic trap numbers (IBA vol. 1, 14.2.5.1). mad/codec/notice.h names the ones it encodes.
namespace trap_number {
inline constexpr std::uint16_t kGidInService = 64;          ///< SA: a GID is now in service
inline constexpr std::uint16_t kGidOutOfService = 65;       ///< SA: a GID is out of service
inline constexpr std::uint16_t kMcastGroupCreated = 66;     ///< SA: a multicast group was created
inline constexpr std::uint16_t kMcastGroupDeleted = 67;     ///< SA: a multicast group was deleted
inline constexpr std::uint16_t kLinkStateChange = 128;      ///< SMA: a port of switch LIDADDR changed state
inline constexpr std::uint16_t kLocalLinkIntegrity = 129;   ///< SMA: LocalLinkIntegrityErrors threshold
inline constexpr std::uint16_t kExcessiveBufferOverrun = 130;  ///< SMA: ExcessiveBufferOverrunErrors threshold
inline constexpr std::uint16_t kFlowControlWatchdog = 131;  ///< SMA: flow control update watchdog expired
inline constexpr std::uint16_t kLocalChanges = 144;         ///< SMA: CapabilityMask (or other local fields) changed
inline constexpr std::uint16_t kSystemImageGuidChange = 145;  ///< SMA: SystemImageGUID changed
inline constexpr std::uint16_t kBadMKey = 256;              ///< SMA: an SMP carried a wrong M_Key
inline constexpr std::uint16_t kBadPKey = 257;              ///< a packet carried a P_Key the port lacks
inline constexpr std::uint16_t kBadQKey = 258;              ///< a datagram carried a wrong Q_Key
inline constexpr std::uint16_t kBadPKeyAtSwitchPort = 259;  ///< switch external port: P_Key enforcement
}  // namespace trap_number

/// What kind of event the trap reports (the rows of the IBA's table, grouped as the SM treats them).
enum class TrapKind : std::uint8_t {
  kGidInService,       ///< 64
  kGidOutOfService,    ///< 65
  kMcastGroupChange,   ///< 66, 67
  kLinkStateChange,    ///< 128
  kPortError,          ///< 129, 130, 131: a link that misbehaves
  kLocalChange,        ///< 144: capability mask or other local fields of LIDADDR's port
  kSystemImageChange,  ///< 145
  kKeyViolation,       ///< 256-259
  kVendor,             ///< not generic: the number is a vendor's DeviceID
  kUnknown,            ///< generic, but not in the table
};

/// What the SM does about it beyond repressing and forwarding it.
enum class TrapResponse : std::uint8_t {
  kNone,           ///< forwarded to subscribers only
  kSweepChanged,   ///< heavy sweep re-reading the issuing switch (SweepScope::kChanged from issuer_lid)
  kSweepFull,      ///< heavy sweep of the whole fabric
  kCountPortError, ///< counted against the port its data details name (health.babbling_port)
};

/// The parts of a received Notice the rule reads.
struct TrapSource {
  bool is_generic = true;        ///< Notice:IsGeneric
  std::uint16_t trap_number = 0; ///< TrapNumber (generic) or DeviceID (vendor)
  Lid issuer_lid = 0;            ///< Notice:IssuerLID, 0 when the issuer gave none
  Lid own_lid = 0;               ///< this SM's port LID, 0 while it has none
};

/// The rule's answer.
struct TrapClass {
  TrapKind kind = TrapKind::kUnknown;
  TrapResponse response = TrapResponse::kNone;
  Lid sweep_from = 0;  ///< kSweepChanged: the switch LID to re-read from (the issuer), else 0
};

/// Classify one trap. Pure. A link change with an issuer asks for an incremental sweep from it; one
/// without an issuer, or a local change at another port, for a full sweep; 144 from the SM's own port is
/// the IsSM bit this SM set and asks for nothing; 129-131 are counted; everything else only goes to the
/// subscribers. Never fails: an unknown number is kUnknown with kNone.
TrapClass classify_trap(const TrapSource& trap);

/// Short stable name of a kind for logs: "link-state-change", "port-error", ...
std::string_view trap_kind_name(TrapKind kind);

}  // namespace smd
