// Internal helper of the fabric generators: adds hosts and switches in netfile order with ibsim GUIDs
// and cables them as active 4x SDR links.
#pragma once

#include <string>

#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "routing/netfile/netfile.h"

namespace smd::fabric_gen {

class Builder {
 public:
  /// One-port CA. Add every host before any switch so the written netfile keeps this order.
  NodeIndex add_host(const std::string& description);
  /// Switch with `ports` physical ports (1..254), lft_cap = kIbsimLinearFdbCap.
  NodeIndex add_switch(const std::string& description, unsigned ports);
  /// Cable a[pa] <-> b[pb] (active, 4x SDR). Errors: port range, port already cabled, self link.
  Status link(NodeIndex a, unsigned pa, NodeIndex b, unsigned pb);
  /// The topology with the SM on the first host (port 1), or on the first switch (port 0) if none.
  Topology finish() &&;

 private:
  Topology topo_;
  IbsimGuidCounter guids_;
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
