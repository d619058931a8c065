// routing.updn: the options of the up*/down* engine, read when the policy loads.
#pragma once

#include <string_view>
#include <vector>

#include "routing/engines/option_reader.h"
#include "routing/engines/rooted_engine.h"

namespace smd {

/// routing.updn.roots (or roots_file): the switches ranked 0 by the BFS; empty = choose them automatically.
struct UpdnOptions : RootGuidOptions {
  static constexpr std::string_view kEngine = "updn";
  using RootGuidOptions::RootGuidOptions;

  /// routing.updn.guid_routing_order (or _file): CA port GUIDs routed first, in this order
  /// (routing/engines/common/routing_order.h); empty = updn's own CA order.
  std::vector<Guid> guid_routing_order;
  /// routing.updn.ids (or ids_file, OpenSM's ids_guid_file): switch GUID -> id. Between switches of equal
  /// rank the lower id is the higher one ("up"), in place of the lower GUID; switches not listed keep
  /// their GUID as id. Empty = GUIDs.
  std::vector<GuidId> ids;

  /// Read roots/roots_file, guid_routing_order/_file and ids/ids_file; false when one was refused. Every
  /// key is read even after a problem, so the earliest one in the file is reported.
  bool read(OptionReader& in);
  /// roots, the routing order and the ids for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
