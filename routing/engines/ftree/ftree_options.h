// routing.ftree: the options of the fat-tree engine, as ftree_factory's parse accepted them.
#pragma once

#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/option_reader.h"
#include "routing/engines/rooted_engine.h"

namespace smd {

/// routing.ftree.roots: the top-level (spine) switch GUIDs; empty = infer the levels from the topology.
/// The compute-node (CN) and I/O-node lists are OpenSM's cn_guid_file / io_guid_file, by CA port GUID:
///   - cn_guids empty: every CA port is a CN, except those in io_guids;
///   - else only the listed ports are CNs; a port in both lists is a CN (OpenSM reads the CN list first).
/// Only CNs define the leaves and the CA order ftree balances for shift permutations; every other CA port
/// (an I/O node, or a port in neither list) is routed after them, load-balanced, and may sit on any switch
/// of the tree (a spine included). Routes to an I/O node may take up to max_reverse_hops down-then-up
/// turns ("reverse hops") where a pure up*/down* route does not exist; other non-CN ports get none.
struct FtreeOptions : RootGuidOptions {
  static constexpr std::string_view kEngine = "ftree";
  using RootGuidOptions::RootGuidOptions;

  /// routing.ftree.cn_guids (or cn_guids_file): the compute-node port GUIDs; empty = all but the I/O nodes.
  std::vector<Guid> cn_guids;
  /// routing.ftree.io_guids (or io_guids_file): the I/O-node port GUIDs; empty = none.
  std::vector<Guid> io_guids;
  /// routing.ftree.max_reverse_hops: down-then-up turns a route to an I/O node may take (OpenSM's
  /// max_reverse_hops, default 0). Such turns leave up*/down*: the tables then promise no deadlock freedom.
  unsigned max_reverse_hops = 0;

  /// Read roots/roots_file, cn_guids/_file, io_guids/_file and max_reverse_hops; false when one was refused.
  /// Every key is read even after a problem, so the earliest one in the file is reported.
  bool read(OptionReader& in);
  /// roots, the list sizes and max_reverse_hops for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
