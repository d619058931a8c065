// The control socket's requests, answered from the daemon's frozen FabricSnapshot (the wire format is
// smd/protocol/control_protocol.h). Everything here is pure: it reads the snapshot (no lock, see
// fabric_snapshot.h) and never blocks, so the server can run it on the daemon's io_context thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "routing/base/status.h"
#include "smd/control/daemon_control.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// Run one parsed request: the row of control_commands() (command_table.h) its "cmd" names; the commands
/// are listed once, in smd/protocol/control_commands.h (`smctl --list-commands`). Never throws;
/// every failure is an error response naming the cause. `requester` names who asked
/// ("uid 0 pid 4242" from SO_PEERCRED); it goes into the reason of the sweeps and reroutes it requests, so the
/// daemon's log says who started them.
Json handle_request(const Json& request, DaemonControl& control, const std::string& requester = "");

/// handle_request for a server that can answer later: `reply` gets the answer, at once for most commands,
/// once the work is done for a row with `start` (command_table.h). Never throws.
void handle_request_async(const Json& request, DaemonControl& control, const std::string& requester,
                          std::function<void(Json)> reply);

// --- Queries on one snapshot (some commands' bodies, exposed for tests; not a list of the commands) ------

/// A node named by description ("leaf-1"), node or port GUID ("0x..."), or LID (decimal "5" or hex
/// "0x0005" when no GUID matches). Errors: kInvalidInput for an unknown or ambiguous name (the message
/// says which), or when the snapshot has no fabric yet.
Result<NodeIndex> resolve_node(const FabricSnapshot& snap, std::string_view name);

/// "2026-12-02T03:04:05Z": a wall-clock time as the control socket's answers carry it (UTC, seconds).
std::string iso_time(std::chrono::system_clock::time_point tp);

/// SM state, sweep counters, last sweep time and result, engine, fabric counts, the policy in effect
/// ({generation, source}) and `needs_restart`: [{key, running, file}] for the keys of the last reloaded
/// file that only a restart applies (smd/sm/policy_reload.h); `log_level`; `sweeps_off`: null, or {since,
/// by, reason, held_back, first_held_back} while `smctl sweeps off` holds.
Json status_json(const FabricSnapshot& snap);

/// How many drains status_json lists (`drained`, in the book's order); `drained_total` and
/// `drained_forced` count them all. A drain file of 170,000 lines made `smctl --json status` 26 MB; the
/// whole list is state_dir/drained, and `smctl node NODE` shows one node's.
inline constexpr std::size_t kStatusDrainsListed = 20;
/// Every node: GUID, type, description, LIDs, DR path, ports with state and peer.
Json nodes_json(const FabricSnapshot& snap);
/// One node of nodes_json (`n` must index snap.topo, which must be set): the fabric view's node page reuses it.
Json node_json(const FabricSnapshot& snap, NodeIndex n);
/// LFTs of every switch, or of the one `switch_name` names ("" = all), as a list of
/// {guid, description, lid, top, entries:[{lid, port, dest}]} with kNoPort entries left out.
/// Errors: kInvalidInput for an unknown switch or one that is not a switch.
Result<Json> lfts_json(const FabricSnapshot& snap, const std::string& switch_name);
/// The path a packet from `src` to `dst` takes through the LFTs: {src, dst, dlid, hops:[{switch,
/// description, in_port, out_port, peer, peer_description, peer_port}], hop_count = switches crossed}.
/// Errors: kInvalidInput for bad names; kVerifyFailed when the tables drop (no route) or loop.
Result<Json> route_json(const FabricSnapshot& snap, const std::string& src, const std::string& dst);
/// `export what=roce`: the plan file FabricSnapshot::roce_plan_path names, parsed (or as text when it is not
/// JSON): {what, path, plan}. Errors: kInvalidInput for another `what`, export off, no plan yet, or a file over
/// kMaxExportBytes (the answer points at the file); kIo when it cannot be read.
Result<Json> export_json(const Json& request, const FabricSnapshot& snap);
/// Every field of a SweepSummary.
Json report_json(const SweepSummary& summary);
/// `sa`: the Subnet Administrator's counters (answers by attribute/method/status, drops, subscriptions,
/// services); {"enabled": false} when the SA is turned off (`sa` null).
Json sa_json(const SaStats* sa);

}  // namespace smd::control
