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
  Result<control::Json> request_drain(const std::vector<std::string>&, bool, const std::string&) override {
    return control::Json::object();
  }
  Result<control::Json> request_undrain(const std::vector<std::string>&, bool, const std::string&) override {
    return control::Json::object();
  }
  void what_if_drain(const std::vector<std::string>&, std::function<void(Result<control::Json>)> done) override {
    done(control::Json::object());
  }
};

}  // namespace smd::test
