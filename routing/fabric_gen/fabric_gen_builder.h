// Internal helper of the fabric generators: adds hosts and switches in netfile order with ibsim GUIDs
// and cables them as active 4x SDR links.
#pragma once

#include <cstddef>
#include <string>

#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "routing/netfile/netfile.h"

namespace smd::fabric_gen {

class Builder {
 public:
  /// `max_hosts`, `max_switches`: what finish() accepts (lower than ibsim's limits only in tests).
  explicit Builder(std::size_t max_hosts = kMaxHosts, std::size_t max_switches = kMaxSwitches)
      : max_hosts_(max_hosts), max_switches_(max_switches) {}

  /// One-port CA. Add every host before any switch so the written netfile keeps this order.
  NodeIndex add_host(const std::string& description);
  /// Switch with `ports` physical ports (1..254), lft_cap = kIbsimLinearFdbCap.
  NodeIndex add_switch(const std::string& description, unsigned ports);
  /// Cable a[pa] <-> b[pb] (active, 4x SDR). Errors: port range, port already cabled, self link.
  Status link(NodeIndex a, unsigned pa, NodeIndex b, unsigned pb);
  /// The topology with the SM on the first host (port 1), or on the first switch (port 0) if none.
  /// Error (kInvalidInput) when more hosts or switches were added than ibsim's GUID counters can number
  /// apart (kMaxHosts, kMaxSwitches): the netfile would give two nodes one GUID.
  Result<Topology> finish() &&;

  /// ibsim numbers CAs from 0x100000 (two GUIDs each: node and port 1) and switches from 0x200000 (one
  /// each), routers from 0x300000: past these counts one range runs into the next.
  static constexpr std::size_t kMaxHosts = (kIbsimSwitchGuidBase - kIbsimCaGuidBase) / 2;
  static constexpr std::size_t kMaxSwitches = kRouterGuidBase - kIbsimSwitchGuidBase;

 private:
  /// The GUIDs of the next node: ibsim's, or past a counter's range, one that collides with nothing
  /// (the fabric is refused by finish(), but the generator can go on linking without a special case).
  void assign_guids(Node& n, std::size_t& added, std::size_t limit, const char* what);

  Topology topo_;
  IbsimGuidCounter guids_;
  std::size_t max_hosts_, max_switches_;
  std::size_t hosts_ = 0, switches_ = 0;
  std::string too_many_;  // why finish() refuses the fabric, empty when it does not
};

/// kInvalidInput "<generator>: <what>".
inline Error bad_shape(const std::string& generator, const std::string& what) {
  return make_error(ErrorCode::kInvalidInput, generator + ": " + what);
}

}  // namespace smd::fabric_gen

/// Return the Error of a failing Status from the enclosing generator.
#define SMD_GEN_TRY(expr)              \
  do {                                 \
    ::smd::Status st_ = (expr);        \
    if (!st_.ok()) return st_.error(); \
  } while (0)
