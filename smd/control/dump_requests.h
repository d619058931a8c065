// `smctl dump lfts|subnet|mcfdbs|sl2vl`: what the daemon has programmed, as the text of OpenSM's own dump
// file of that name (smd/dump/), so site scripts that parse OpenSM's dumps keep working. A pure read of one
// frozen snapshot, like requests.h.
#pragma once

#include "routing/base/status.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// {"cmd":"dump","what":W} -> {what, file: OpenSM's file name ("opensm-lfts.dump", "opensm-subnet.lst",
/// "opensm.mcfdbs", "opensm-sl2vl.dump"), text}. Errors (kInvalidInput): an unknown or missing `what`; no
/// swept fabric yet; sl2vl when the last sweep wrote no SL2VL tables (qos off, no VL layers).
Result<Json> dump_json(const Json& request, const FabricSnapshot& snap);

}  // namespace smd::control
