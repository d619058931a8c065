// The policy's `ports:` section (config/smd.yaml documents every key): the PortInfo and SwitchInfo fields
// the SM owns besides LIDs and keys (IBA 14.2.5.6, 14.2.5.4), named as OpenSM's options so an operator can
// carry an opensm.conf over.
#pragma once

#include "config/policy.h"
#include "config/yaml_fields.h"

namespace smd {

/// Read `ports` into `out`. Errors (in the reader's Diagnostics, at the value): a number outside its field
/// (HOQLife and LifeTimeValue 0..20, VLStallCount 1..7, SubnetTimeOut 0..31, thresholds and MasterSMSL
/// 0..15), a link width, speed or extended speed that is no mask and not one of the codes the IBA gives
/// a meaning (force_link_width 0..31 or 255, force_link_speed 0..7 or 15, force_link_speed_ext 0..31),
/// unknown keys.
void read_ports(MapReader ports, PortsPolicy& out);

}  // namespace smd
