// The QoS policy as data (YAML `qos:`): SL2VL and VL arbitration per port type, and the QoS levels the SA
// matches PathRecord queries against. The shape follows OpenSM's qos_* options (doc/qos-config.txt) and
// qos-policy.conf (port groups, QoS levels, match rules). With `enabled` false nothing of it is
// programmed or matched, as OpenSM without -Q.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/topology.h"

namespace smd {

/// SL -> VL of one port (IBA 7.6.6, SLtoVLMappingTable 14.2.5.8): entry SL holds a VL 0..14, or 15 to
/// drop packets on that SL.
using Sl2Vl = std::array<std::uint8_t, 16>;

/// One VLArbitration table entry (IBA 14.2.5.9): a data VL and its weight in 64-byte units (0 = skip).
struct VlArbEntry {
  std::uint8_t vl = 0;
  std::uint8_t weight = 0;
  bool operator==(const VlArbEntry&) const = default;
};

/// The IBA limit of a VLArbitration table (high or low): 64 entries (two 32-entry blocks).
inline constexpr std::size_t kMaxVlArbEntries = 64;

/// SL2VL and arbitration of one port type (OpenSM qos_ca_*, qos_sw0_*, qos_swe_*, qos_rtr_*).
struct QosPortSpec {
  std::uint8_t max_vls = 15;  ///< data VLs used (1..15): OperationalVLs is capped to it
  /// PortInfo:VLHighLimit: high-priority bytes, in 4 KB units, sent before one low-priority packet must
  /// be; 255 = unbounded (IBA 7.6.9).
  std::uint8_t high_limit = 0;
  std::vector<VlArbEntry> vlarb_high;  ///< up to kMaxVlArbEntries; programmed up to VLArbitrationHighCap
  std::vector<VlArbEntry> vlarb_low;   ///< up to kMaxVlArbEntries; programmed up to VLArbitrationLowCap
  Sl2Vl sl2vl{};
  bool operator==(const QosPortSpec&) const = default;
};

/// OpenSM's defaults (osm_base.h): max_vls 15, high_limit 0, high 0:4 1:0 .. 14:0, low 0:0 1:4 .. 14:4,
/// SL2VL 0,1,..,14,7.
QosPortSpec default_qos_port_spec();

/// A named set of ports that match rules refer to (qos-policy.conf port-groups). A port belongs when any
/// criterion holds.
struct QosPortGroup {
  std::string name;
  std::vector<Guid> guids;              ///< port GUIDs (a CA port, or a switch's port 0)
  std::vector<std::string> nodes;       ///< NodeDescriptions: every port of those nodes
  std::vector<std::string> partitions;  ///< partition names: every member port of them
  std::vector<NodeType> node_types;     ///< every port of nodes of these types
  bool self = false;                    ///< the SM's own port
  bool operator==(const QosPortGroup&) const = default;
};

/// A QoS level (qos-policy.conf qos-levels): what a PathRecord that matches it gets. Absent = not limited.
struct QosLevel {
  std::string name;
  std::optional<std::uint8_t> sl;           ///< 0..15
  std::optional<std::uint8_t> mtu_limit;    ///< IBA MTU code 1..5 (256..4096 bytes): the path MTU cap
  std::optional<std::uint8_t> rate_limit;   ///< IBA rate code (2 = 2.5 Gb/s ... ): the path rate cap
  std::optional<std::uint8_t> packet_life;  ///< PacketLifeTime exponent 0..63 (4.096 us * 2^x)
  std::vector<std::uint16_t> pkeys;         ///< P_Key bases (15 bits) this level allows; empty = any
  bool operator==(const QosLevel&) const = default;
};

/// An inclusive range of 64-bit values (service IDs) or of P_Key bases.
struct QosRange {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  bool contains(std::uint64_t v) const { return v >= first && v <= last; }
  bool operator==(const QosRange&) const = default;
};

/// A match rule (qos-policy.conf qos-match-rules): a query matches when it meets every criterion given;
/// the first rule that matches names the level.
struct QosMatchRule {
  std::string level;                     ///< a QosLevel's name
  std::vector<std::string> source;       ///< port group names (source port); empty = any
  std::vector<std::string> destination;  ///< port group names (destination port); empty = any
  std::vector<QosRange> service_ids;     ///< empty = any
  std::vector<QosRange> pkeys;           ///< P_Key bases; empty = any
  bool operator==(const QosMatchRule&) const = default;
};

/// The name of the level a query gets when no rule matches; a policy with levels must define it.
inline constexpr const char* kDefaultQosLevel = "DEFAULT";

/// The whole `qos:` section.
struct QosSpec {
  bool enabled = false;
  QosPortSpec ca = default_qos_port_spec();
  QosPortSpec switch_port0 = default_qos_port_spec();     ///< a switch's management port (enhanced port 0)
  QosPortSpec switch_external = default_qos_port_spec();  ///< every other switch port
  QosPortSpec router = default_qos_port_spec();
  std::vector<QosPortGroup> port_groups;
  std::vector<QosLevel> levels;     ///< empty, or one of them is kDefaultQosLevel
  std::vector<QosMatchRule> rules;  ///< in policy order: first match wins
  bool operator==(const QosSpec&) const = default;
};

}  // namespace smd
