// A DaemonControl that asks nothing of any daemon: it answers with the snapshot a test sets and drops
// every request. Tests derive from it and override only the requests they record, so a new DaemonControl
// call touches this file, not every fake.
#pragma once

#include <memory>
#include <string>

#include "smd/control/daemon_control.h"

namespace smd::test {

struct NullControl : DaemonControl {
  std::shared_ptr<const FabricSnapshot> snap;
  std::shared_ptr<const FabricSnapshot> snapshot() const override { return snap; }
  void request_heavy_sweep(const std::string&) override {}
  void request_reroute(const std::string&) override {}
  void request_port_clear(PortKey, const std::string&) override {}
  void request_light_sweep(const std::string&) override {}
  void request_sweeping(bool, const std::string&, const std::string&) override {}
  void set_log_level(const std::string&, const std::string&) override {}
  Status request_perfmgr(PerfMgrRequest, const std::string&) override { return Ok{}; }
};

}  // namespace smd::test
