// The `file` routing engine: replays the LFTs of an opensm-lfts.dump (OpenSM's `routing_engine file` with
// `lfts_file`), so a table computed once, by OpenSM or by smd, is programmed again as it was.
//
// Contract. Every switch of the fabric must have a section in the dump, and every section must name a
// switch of the fabric; each switch's LFT becomes exactly its section (top = the section's top, the rows
// listed, 0xFF elsewhere). Rows for LIDs nobody holds are kept, as OpenSM's engine keeps them.
// What the dump does not cover is NOT filled in: unlike OpenSM's engine, which completes missing entries
// with min-hop routes, smd never mixes replayed and computed routes. A LID the dump does not route
// leaves black holes that the verifier refuses, and a switch without a section makes the engine decline;
// either way the chain's next engine routes the whole fabric (`engines: [file, minhop]` is OpenSM's
// fallback). The dump names LIDs, so the fabric must hold the LIDs it was made with: keep the guid2lid
// of the same fabric (docs/man/smd.8, FILE ENGINE).
// Errors (nothing is programmed from a dump that does not fit): kInvalidInput "source:line:column: ..."
// for a section whose switch is not in the fabric (or is not a switch), whose switch has another LID in
// the fabric than in the dump's header (the LIDs were not kept), a top at or above the switch's
// LinearFDBCap, a port above the switch's NumPorts; kInvalidInput when no dump is configured;
// kDeclined naming the first fabric switch without a section. O(switches + rows).
#pragma once

#include <string_view>

#include "routing/engines/engine.h"
#include "routing/engines/file/file_options.h"

namespace smd {

/// Registry name "file". Tables never promise deadlock freedom: the verifier judges them as they are.
class FileEngine final : public SectionEngine<FileOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
