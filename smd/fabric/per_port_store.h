// PerPortStore: what the SM knows each port acknowledged, by (node GUID, port), kept across sweeps. The
// applied P_Key, QoS and PortInfo-field records differ only in what one port holds; how a port's record is
// found, and how a node that rebooted or left is forgotten (its tables are written again), is this one map.
#pragma once

#include <cstddef>
#include <map>

#include "routing/base/ids.h"

namespace smd {

/// Entry: one port's acknowledged state (default-constructible: a port's record starts empty).
template <class Entry>
class PerPortStore {
 public:
  /// The port's record, null when the SM knows nothing of it.
  const Entry* port(Guid node_guid, PortNum port) const {
    const auto it = ports_.find(PortKey{node_guid, port});
    return it == ports_.end() ? nullptr : &it->second;
  }
  /// Forget every port of one node (it rebooted, or left the fabric): what it acknowledged means nothing now.
  void forget(Guid node_guid) {
    auto it = ports_.lower_bound(PortKey{node_guid, 0});
    while (it != ports_.end() && it->first.node_guid == node_guid) it = ports_.erase(it);
  }
  void forget_all() { ports_.clear(); }
  std::size_t size() const { return ports_.size(); }
  /// Every port's record, in (node GUID, port) order.
  const std::map<PortKey, Entry>& ports() const { return ports_; }
  bool operator==(const PerPortStore&) const = default;

 protected:
  /// The port's record to change, made empty on first use (a write was just acknowledged).
  Entry& record_of(Guid node_guid, PortNum port) { return ports_[PortKey{node_guid, port}]; }
  /// The port's record to change, null when absent (forgetting part of nothing changes nothing).
  Entry* find(Guid node_guid, PortNum port) {
    const auto it = ports_.find(PortKey{node_guid, port});
    return it == ports_.end() ? nullptr : &it->second;
  }

  std::map<PortKey, Entry> ports_;
};

}  // namespace smd
