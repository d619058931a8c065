// The lists of a QosSpec (port groups, QoS levels, match rules) written as the policy's `qos:` keys
// (config/smd.yaml), for `smd import-qos-policy` and `smd import-opensm-conf`: what the loader
// (config/qos_section.h) reads back as the same lists.
#pragma once

#include <string>
#include <vector>

#include "routing/qos/qos_spec.h"

namespace smd {

/// One key of `qos:` and its items, each a one-line YAML flow mapping.
struct QosYamlKey {
  std::string key;                 ///< port_groups, levels or rules
  std::vector<std::string> items;  ///< never empty
};

/// The non-empty lists of `spec`, in the loader's order (groups, levels, rules). GUIDs, P_Keys and service
/// IDs in hex; MTU limits in bytes and rate limits in Gb/s as the loader reads them; ranges as "first-last".
std::vector<QosYamlKey> qos_list_keys(const QosSpec& spec);

/// A key's items as one flow sequence ("[{...}, {...}]"), for a key written on one line.
std::string flow_sequence(const QosYamlKey& key);

/// The Gb/s text the loader reads as IBA rate code `code` (2..24, table 224 and its extensions); "" for
/// another code.
std::string gbps_of_rate_code(std::uint8_t code);

}  // namespace smd
