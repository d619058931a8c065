// OpenSM's qos-policy.conf (doc/QoS_management_in_OpenSM.txt, opensm(8) -Y) read into the lists of smd's
// `qos:` section, for `smd import-qos-policy` and `smd import-opensm-conf`. The file is line based: every
// keyword is the first word of its line, '#' starts a comment, sections are closed by matching end-* lines:
//   port-groups / port-group:   name, use, port-guid (values and ranges), port-name ("NodeDescription/Pn"),
//                               pkey, partition, node-type (CA, SWITCH, ROUTER, ALL, SELF)
//   qos-setup:                  OpenSM parses and ignores it (its SL2VL/VLArb come from opensm.conf)
//   qos-levels / qos-level:     name, use, sl, mtu-limit (MTU code), rate-limit (rate code), packet-life,
//                               pkey, path-bits
//   qos-match-rules / -rule:    use, qos-class, source, destination, service-id, pkey, qos-level-name
//   qos-ulps:                   "ULP[, criterion values] : SL" lines; ULPs default, any, ipoib, sdp, rds,
//                               iser, srp; criteria service-id, pkey, port-num, target-port-guid,
//                               source-port-guid
// Kept as OpenSM: match rules are tried in file order, then the qos-ulps lines, then DEFAULT; a query must
// meet every criterion a rule gives.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/partitions/partition_spec.h"
#include "routing/qos/qos_spec.h"

namespace smd {

/// What a qos-policy.conf became.
struct QosPolicyImport {
  /// port_groups, levels and rules as the file gives them (enabled and the per-port-type tables are left
  /// at their defaults: OpenSM takes those from opensm.conf).
  QosSpec spec;
  std::vector<std::string> warnings;  ///< "source:line:column: ..." for what was not carried or was changed
};

/// Parse qos-policy.conf text; `source_name` prefixes every message. `partitions` is the partition policy
/// the result will load with: a port group's `partition:` must name one of them and its `pkey:` is turned
/// into the partition's name.
/// How a qos-ulps line is carried: one QoS level per SL the lines use ("ulp_sl<N>"), and one match rule per
/// line after the file's match rules, with OpenSM's service IDs (SDP 0x1PPPP, RDS and iSER 0x106PPPP, RDS's
/// default port 0x48CA, iSER's 0x0CBC), P_Key (IPoIB's default 0x7fff), or a port group made for the GUIDs.
/// Warnings (the conversion goes on): qos-setup's content; path-bits; a rule with qos-class (dropped whole:
/// without that criterion it would match more); a port-name's port number (smd groups whole nodes); a GUID
/// or P_Key range too large to list (dropped); a partition or P_Key smd's partitions lack (dropped); a
/// P_Key with bit 15 set (its low 15 bits kept); a qos-ulps default beside a DEFAULT level.
/// Errors (kInvalidInput "source:line:column: ..."): an unknown keyword or section, a section left open or
/// closed without being opened, a malformed or out-of-range number or range, a group or level without a
/// name or named twice, a rule without qos-level-name or naming an unknown level or group, srp without
/// target-port-guid, an unknown ULP or criterion, levels or rules without a DEFAULT level.
Result<QosPolicyImport> parse_qos_policy_conf(std::string_view text, const std::string& source_name,
                                              const PartitionsSpec& partitions);

}  // namespace smd
