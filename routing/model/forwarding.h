// Linear Forwarding Tables as the SM computes and programs them (IBA 14.2.5.10).
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/adaptive.h"
#include "routing/model/topology.h"
#include "routing/model/vl_layers.h"

namespace smd {

/// One switch's LFT: out-port per destination LID, kNoPort (0xFF) where there is no route.
class Lft {
 public:
  Lft() = default;
  /// An empty table covering LIDs 0..top (all kNoPort).
  explicit Lft(Lid top) : ports_(static_cast<std::size_t>(top) + 1, kNoPort) {}

  PortNum get(Lid lid) const { return lid < ports_.size() ? ports_[lid] : kNoPort; }
  void set(Lid lid, PortNum port) {
    if (lid >= ports_.size()) ports_.resize(static_cast<std::size_t>(lid) + 1, kNoPort);
    ports_[lid] = port;
  }
  /// Highest LID covered (the LinearFDBTop to program).
  Lid top() const { return static_cast<Lid>(ports_.empty() ? 0 : ports_.size() - 1); }
  bool empty() const { return ports_.empty(); }
  /// Number of 64-entry blocks covering 0..top.
  unsigned num_blocks() const { return static_cast<unsigned>((ports_.size() + kLftBlockSize - 1) / kLftBlockSize); }
  /// Block b as 64 bytes; entries past top read as kNoPort.
  std::array<std::uint8_t, kLftBlockSize> block(unsigned b) const;
  const std::vector<PortNum>& entries() const { return ports_; }
  /// The entries to write in bulk (LidMajorLfts::store); index = LID, kNoPort = no route.
  std::vector<PortNum>& mutable_entries() { return ports_; }

  bool operator==(const Lft&) const = default;

 private:
  std::vector<PortNum> ports_;
};

/// The output of a routing engine: an LFT for every switch (indexed by NodeIndex, empty for CAs).
struct RoutingTables {
  std::string engine;               ///< name of the engine that produced the tables
  std::vector<Lft> lft;             ///< [NodeIndex] -> table; empty Lft for non-switches
  std::vector<NodeIndex> ca_order;  ///< CA order the engine optimised for (shift patterns), may be empty
  /// Things the operator should hear about that did not stop the engine (a GUID of
  /// routing.<engine>.guid_routing_order that is not in the fabric); the sweep logs each as a warning.
  std::vector<std::string> notes;
  /// ftree: the top-level switches its levels were counted down from (the roots it inferred or was
  /// given). The sweep hands them back when inference later fails (a leaf whose hosts are all down).
  std::vector<Guid> tree_roots;
  bool deadlock_free = false;                    ///< engine promises an acyclic channel-dependency graph on one VL
  std::shared_ptr<const AdaptivePlan> adaptive;  ///< AR groups when routing.adaptive is on, else null
  /// The layer (SL and VL) of every route when a VL-layered engine (dfsssp) produced the tables, else null:
  /// then deadlock_free promises an acyclic channel-dependency graph per layer, not on one VL.
  std::shared_ptr<const VlLayering> layering;
};

}  // namespace smd
