// The policy's `qos:` section (config/smd.yaml documents every key): SL2VL and VL arbitration per port type
// (OpenSM's qos_* options), port groups, QoS levels and match rules (qos-policy.conf's shape, in YAML). One
// reader per nested shape, every error at file:line:column as the rest of the loader.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "config/yaml_fields.h"
#include "routing/partitions/partition_spec.h"
#include "routing/qos/qos_spec.h"

namespace smd {

/// Read `qos` (the section's reader) into `out`. `partitions` is the policy's partition section: a port
/// group's `partitions` must name its entries. A per-type block (ca, switch_port0, switch_external, router)
/// starts from the top-level values and overrides what it names. The section is validated whole even when
/// `enabled` is false, so turning it on later cannot reveal old mistakes.
/// Errors recorded in the reader's Diagnostics, each at the offending value: values out of range, unknown
/// keys, an sl2vl that is not 16 VLs 0..15, a vlarb entry with a VL above 14 or a weight above 255, more
/// than 64 vlarb entries, a level or port group named twice, levels without DEFAULT, a rule or port group
/// naming an unknown level, group or partition, an empty range ("0x20-0x10").
void read_qos(MapReader qos, const PartitionsSpec& partitions, QosSpec& out);

/// The IBA rate code (15.2.5.16 table 224 and its extensions) of a rate written in Gb/s ("2.5", "100");
/// nullopt for a rate no code stands for.
std::optional<std::uint8_t> rate_code_of_gbps(std::string_view text);

/// The IBA MTU code (1 = 256 .. 5 = 4096) of an MTU in bytes; nullopt unless one of those five sizes.
std::optional<std::uint8_t> mtu_code_of_bytes(std::uint64_t bytes);

}  // namespace smd
