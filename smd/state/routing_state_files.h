// The files a routed sweep leaves in state_dir for other tools: ca-order (the CA order routing used,
// ca_order_file.h) and, for adaptive tables, ar-plan.json (ar_plan_json.h). Written by the sweep once its
// timed phases are over, so a bring-up's or a repair's routing time never includes their fsyncs.
#pragma once

#include <string>

#include "routing/model/forwarding.h"
#include "routing/model/topology.h"
#include "smd/state/kept_state_file.h"

namespace smd {

class RoutingStateFiles {
 public:
  /// Write the files of `tables` routed on `topo` into `state_dir`: ca-order when the engine fixed a CA
  /// order (only when its text changed or the file has gone), ar-plan.json when the tables are adaptive.
  /// A failed write is logged (kIo, with the path) and does not stop the sweep.
  void write(const std::string& state_dir, const Topology& topo, const RoutingTables& tables);
  /// state_dir may have moved: the next write() writes ca-order whatever its text.
  void forget_written() { ca_order_.forget_written(); }

 private:
  KeptStateFile<std::string> ca_order_;
};

}  // namespace smd
