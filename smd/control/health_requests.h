// `smctl counters`, `smctl ports` and `smctl port clear`: the PerfMgr's last counter pass (FabricSnapshot::perf)
// and the health rules' marks (FabricSnapshot::unhealthy). Pure reads of one frozen snapshot, like requests.h;
// the clear only names the port, the daemon applies it between sweeps.
#pragma once

#include <cstdint>
#include <string>

#include "routing/base/status.h"
#include "smd/control/daemon_control.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// {enabled, passes, interval_s, last_pass: {mads, timeouts, errors, resets, ports, wall_ms, cpu_ms, paused_ms,
/// end}, clears (`smctl perfmgr clear`s), cleared_at (the last, null: never), ports: [{node_guid, node_desc, port, lid,
/// peer, extended, counters: {IBA name: value}, delta: {...}, total: {...}, data: {xmit_bytes, rcv_bytes, xmit_pkts,
/// rcv_pkts}, rate: {... per second}, saturated: [names], errors: bool}]}. `node` ("" = all) keeps one node's ports (a
/// description, GUID or LID as resolve_node reads it); `errors_only` keeps the ports whose error counters moved in the
/// last interval. Errors: kInvalidInput for an unknown node, or when the PerfMgr is not running (not MASTER, or
/// perfmgr.enabled false).
Result<Json> counters_json(const FabricSnapshot& snap, const std::string& node, bool errors_only);

/// {ports: [{node_guid, node_desc, port, dr_path, peer, unhealthy, reason?, isolated?, kept_reason?,
/// flaps?, since?}], unhealthy: n, isolated: n}. Every cabled port of the fabric, or only the unhealthy ones.
Json ports_json(const FabricSnapshot& snap, bool unhealthy_only);

/// Resolve `node` and `port` (1..NumPorts) and ask the daemon to clear the mark; {cleared: bool (it was
/// marked), node_guid, port}. Errors: kInvalidInput for an unknown node or a port it does not have.
Result<Json> port_clear(DaemonControl& control, const FabricSnapshot& snap, const std::string& node, std::int64_t port,
                        const std::string& requester);

}  // namespace smd::control
