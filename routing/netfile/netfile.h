// Netfile reader: builds a Topology from an ibsim netfile or from a cluster's ibnetdiscover output
// (ibsim accepts both). Used by the offline planner and by tests. Pure: it takes text, and the caller
// reads files, included ones too (config/netfile_file.h reads them from disk with bounds).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "routing/base/ids.h"
#include "routing/base/status.h"
#include "routing/model/topology.h"

namespace smd {

/// ibsim 0.10 GUID counters, measured with ibnetdiscover on a running ibsim: one counter per node type,
/// taken in the order node headers appear. A switch takes the switch counter, which then advances by 1;
/// its ports all report the node GUID. A CA takes the CA counter as node GUID, port p gets node GUID + p,
/// and the counter advances by NumPorts + 1. A `switchguid=X` / `caguid=X` line restarts that counter at X
/// (port GUIDs in "(...)" are ignored by ibsim). SystemImageGUID = node GUID.
inline constexpr Guid kIbsimSwitchGuidBase = 0x200000;
inline constexpr Guid kIbsimCaGuidBase = 0x100000;
/// ibsim gives every router GUID 0 (so two routers collide); smd numbers routers like CAs from here instead.
inline constexpr Guid kRouterGuidBase = 0x300000;

/// LinearFDBCap that ibsim 0.10 switches report in SwitchInfo (smpquery si: 30720 = 480 LFT blocks);
/// the default for offline switches.
inline constexpr std::uint16_t kIbsimLinearFdbCap = 30720;

/// Hands out node and port GUIDs exactly as ibsim does while it reads a netfile top to bottom, so an
/// offline plan and the fabric ibsim simulates from the same file share GUIDs.
class IbsimGuidCounter {
 public:
  /// Fill node.guid, node.system_image_guid and every ports[p].guid for the next node of its type.
  /// node.type, node.num_ports and node.ports (size num_ports + 1) must already be set.
  void assign(Node& node);

  /// Restart the counter of `type` at `guid` (what a switchguid= / caguid= line does in ibsim).
  void restart_at(NodeType type, Guid guid);

 private:
  Guid next_switch_ = kIbsimSwitchGuidBase;
  Guid next_ca_ = kIbsimCaGuidBase;
  Guid next_router_ = kRouterGuidBase;
};

/// Reads the file an `include "file"` line names. `path` is the name as written, resolved against the
/// including file's directory when it is relative (`include "sub/sw.net"` in "/x/main.net" asks for
/// "/x/sub/sw.net"). Returns the file's text, or why it cannot be had; the parser puts
/// "file:line:column: include: " before that message. Include cycles, nesting deeper than 16 and more than
/// 4096 included files in all are refused by the parser before the reader is asked.
using NetfileIncludeReader = std::function<Result<std::string>(const std::string& path)>;

/// Build a Topology from the netfile `text`; `name` is the file's name in messages and the base of
/// relative includes. `read_include` reads included files; without one, an include line is an error.
/// Errors: kInvalidInput with "file:line:column: what" for syntax errors, unknown peers, ports out of
/// range, one-sided or contradictory links, a node cabled to itself, duplicate ids or GUIDs, include
/// cycles; "name: no nodes" for text without a node; an include's own error (read_include's) after
/// "file:line:column: include: ".
///
/// Filled in: node type, NumPorts, GUIDs as ibsim assigns them (IbsimGuidCounter; so from switchguid= /
/// caguid= / rtguid= lines when present, NOT from "S-..."/"H-..." ids, which ibsim ignores), description
/// (the header's `# "desc"` when present, else the quoted id: what ibsim reports as NodeDescription),
/// cabled ports (state kActive, phys_state 5 LinkUp), width/speed (highest common setting of both ends'
/// `w=`/`s=` masks or "4xQDR"-style comments, default 4x SDR; FDR/EDR/HDR/NDR are stored as QDR because
/// Port has no extended-speed field), LIDs that ibnetdiscover printed, switch lft_cap =
/// kIbsimLinearFdbCap, sm_node = first CA listed (else first node), sm_port = its first cabled port (0 when
/// the SM node is a switch: an SM on a switch uses management port 0). `do ...` lines are ignored.
Result<Topology> parse_netfile(std::string_view text, const std::string& name,
                               const NetfileIncludeReader& read_include = {});

}  // namespace smd
