// Netfile writer: renders a Topology as an ibsim netfile that ibsim and parse_netfile both accept.
#pragma once

#include <iosfwd>

#include "routing/base/status.h"
#include "routing/model/topology.h"

namespace smd {

/// Write `topo` in ibsim's format: one `Switch N "id"` / `Hca N "id"` block per node, a
/// `[p] "peer"[q] w=<mask> s=<mask>` line per cabled port, blank line between nodes. Ids are the node
/// descriptions. The SM's CA (topo.sm_node) comes first, because ibsim attaches clients to the first node;
/// every other node follows in NodeIndex order. ibsim numbers GUIDs by that order (IbsimGuidCounter), so
/// generated topologies, whose SM is the first CA they add, keep their GUIDs through ibsim.
/// Errors (kInvalidInput, nothing written): a description that is empty, longer than 60 characters,
/// contains a quote or a newline, or is used by two nodes; a router node (ibsim has none).
/// Errors also: kIo "netfile: write failed" when `out` fails. Writing a file is config/netfile_file.h's.
Status write_netfile(const Topology& topo, std::ostream& out);

}  // namespace smd
