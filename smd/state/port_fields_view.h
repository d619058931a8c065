// PortFieldsView: the SM-owned PortInfo fields (smd/fabric/port_fields.h, in PortField order) and SwitchInfo
// LifeTimeValue of every port and switch, as the last configuring sweep left them known (the last PortInfo
// read or answered to a Set), for `smctl nodes`. Plain data, frozen in a FabricSnapshot.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "smd/fabric/observed.h"

namespace smd {

struct PortFieldsView {
  using Values = std::array<std::uint8_t, 9>;  ///< SubnetTimeOut .. LinkSpeedExtEnabled (PortField order)
  /// [NodeIndex][port]: nullopt where the port was never read (or its state became unknown).
  std::vector<std::vector<std::optional<Values>>> ports;
  /// [NodeIndex]: a switch's LifeTimeValue; nullopt for CAs and unread switches.
  std::vector<std::optional<std::uint8_t>> life_time_value;
};

/// The view of `known` (a sweep's fabric as known at its end, SweepRunner::known_fabric), indexed as its topology.
PortFieldsView make_port_fields_view(const ObservedFabric& known);

}  // namespace smd
