#include "smd/protocol/trap_class.h"

namespace smd {
namespace {

TrapKind generic_kind(std::uint16_t number) {
  namespace n = trap_number;
  switch (number) {
    case n::kGidInService: return TrapKind::kGidInService;
    case n::kGidOutOfService: return TrapKind::kGidOutOfService;
    case n::kMcastGroupCreated:
    case n::kMcastGroupDeleted: return TrapKind::kMcastGroupChange;
    case n::kLinkStateChange: return TrapKind::kLinkStateChange;
    case n::kLocalLinkIntegrity:
    case n::kExcessiveBufferOverrun:
    case n::kFlowControlWatchdog: return TrapKind::kPortError;
    case n::kLocalChanges: return TrapKind::kLocalChange;
    case n::kSystemImageGuidChange: return TrapKind::kSystemImageChange;
    case n::kBadMKey:
    case n::kBadPKey:
    case n::kBadQKey:
    case n::kBadPKeyAtSwitchPort: return TrapKind::kKeyViolation;
    default: return TrapKind::kUnknown;
  }
}

}  // namespace

TrapClass classify_trap(const TrapSource& trap) {
  TrapClass c;
  c.kind = trap.is_generic ? generic_kind(trap.trap_number) : TrapKind::kVendor;
  switch (c.kind) {
    case TrapKind::kLinkStateChange:
      // Without an issuer there is no switch to start from: the whole fabric is read.
      c.response = trap.issuer_lid != 0 ? TrapResponse::kSweepChanged : TrapResponse::kSweepFull;
      c.sweep_from = trap.issuer_lid;
      break;
    case TrapKind::kLocalChange:
      // Our own port announces the IsSM bit this SM set: nothing in the fabric changed.
      c.response = trap.own_lid != 0 && trap.issuer_lid == trap.own_lid ? TrapResponse::kNone : TrapResponse::kSweepFull;
      break;
    case TrapKind::kPortError: c.response = TrapResponse::kCountPortError; break;
    default: c.response = TrapResponse::kNone; break;
  }
  return c;
}

std::string_view trap_kind_name(TrapKind kind) {
  switch (kind) {
    case TrapKind::kGidInService: return "gid-in-service";
    case TrapKind::kGidOutOfService: return "gid-out-of-service";
    case TrapKind::kMcastGroupChange: return "mcast-group-change";
    case TrapKind::kLinkStateChange: return "link-state-change";
    case TrapKind::kPortError: return "port-error";
    case TrapKind::kLocalChange: return "local-change";
    case TrapKind::kSystemImageChange: return "system-image-change";
    case TrapKind::kKeyViolation: return "key-violation";
    case TrapKind::kVendor: return "vendor";
    case TrapKind::kUnknown: return "unknown";
  }
  return "unknown";
}

}  // namespace smd
