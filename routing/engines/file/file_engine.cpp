#include "routing/engines/file/file_engine.h"

#include <utility>

#include "routing/base/hex_text.h"

namespace smd {
namespace {

Error misfit(const LftsDump& dump, DumpPlace at, const std::string& message) {
  return make_error(ErrorCode::kInvalidInput, dump_message(dump.source, at, message));
}

}  // namespace

Result<RoutingTables> FileEngine::compute(const Topology& topo, const LidMap& lids) const {
  if (!options_.dump) {
    return make_error(ErrorCode::kInvalidInput, "routing.file.lfts_file is not set: no dump to replay");
  }
  const LftsDump& dump = *options_.dump;
  RoutingTables tables;
  tables.engine = std::string(name());
  tables.lft.resize(topo.nodes().size());
  std::vector<bool> covered(topo.nodes().size(), false);
  // Every section is checked before any table is kept, so a dump that does not fit yields nothing.
  for (const DumpSwitch& section : dump.switches) {
    const std::optional<NodeIndex> n = topo.find(section.guid);
    if (!n) return misfit(dump, section.guid_at, "switch " + hex64_text(section.guid) + " is not in the fabric");
    const Node& sw = topo.node(*n);
    if (sw.type != NodeType::kSwitch) {
      return misfit(dump, section.guid_at, describe_node(sw) + " is not a switch");
    }
    // Rows name destination LIDs: they mean something only if the fabric kept the dump's LIDs. A
    // switch's own LID moved is the cheap sign that it did not (another guid2lid, or none).
    if (section.lid != 0 && lids.base_lid(*n, 0) != section.lid) {
      return misfit(dump, section.lid_at,
                    describe_node(sw) + " has LID " + std::to_string(lids.base_lid(*n, 0)) + " in the fabric, " +
                        std::to_string(section.lid) +
                        " in the dump: run with the guid2lid of the fabric the dump was made on");
    }
    // LinearFDBCap counts entries (LIDs 0..cap-1); 0 = not known (a hand-made topology), not checked.
    if (sw.lft_cap != 0 && section.top >= sw.lft_cap) {
      return misfit(dump, section.top_at,
                    "top LID " + std::to_string(section.top) + " is beyond " + describe_node(sw) + "'s LinearFDBCap " +
                        std::to_string(sw.lft_cap));
    }
    Lft lft(section.top);
    for (const DumpRoute& route : section.routes) {
      if (route.port > sw.num_ports) {
        return misfit(dump, route.port_at,
                      "port " + std::to_string(route.port) + " for LID " + hex_text(route.lid, 4) + ": " +
                          describe_node(sw) + " has ports 0.." + std::to_string(sw.num_ports));
      }
      lft.set(route.lid, route.port);
    }
    tables.lft[*n] = std::move(lft);
    covered[*n] = true;
  }
  for (NodeIndex n : topo.switches()) {
    if (!covered[n]) {
      return make_error(ErrorCode::kDeclined, dump.source + ": no section for " + describe_node(topo.node(n)) +
                                                  ": the dump was made on another fabric");
    }
  }
  return tables;
}

}  // namespace smd
