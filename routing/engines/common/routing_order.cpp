#include "routing/engines/common/routing_order.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace smd {

DestinationOrder destination_order(const Topology& topo, const LidMap& lids, std::span<const Guid> guids) {
  DestinationOrder out;
  const std::vector<LidMap::Entry> entries = lids.entries();
  if (guids.empty()) {
    for (const auto& e : entries) {
      for (unsigned x = 0; x < (1u << e.lmc); ++x) out.lids.push_back(static_cast<Lid>(e.base + x));
    }
    return out;
  }
  std::unordered_map<Guid, std::size_t> entry_of;  // port GUID -> index into entries
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LidOwner& o = entries[i].owner;
    if (o.node >= topo.size()) continue;
    const Node& node = topo.node(o.node);
    if (o.port < node.ports.size() && node.ports[o.port].guid != 0) entry_of.emplace(node.ports[o.port].guid, i);
  }
  std::vector<std::size_t> order;
  std::vector<std::uint8_t> listed(entries.size(), 0);
  for (Guid g : guids) {
    auto it = entry_of.find(g);
    if (it == entry_of.end() || listed[it->second]) {
      if (it == entry_of.end()) out.unknown.push_back(g);
      continue;
    }
    listed[it->second] = 1;
    order.push_back(it->second);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!listed[i]) order.push_back(i);
  }
  unsigned rounds = 1;
  for (const auto& e : entries) rounds = std::max(rounds, 1u << e.lmc);
  for (unsigned x = 0; x < rounds; ++x) {
    for (std::size_t i : order) {
      if (x < (1u << entries[i].lmc)) out.lids.push_back(static_cast<Lid>(entries[i].base + x));
    }
  }
  return out;
}

std::string skipped_guids_note(std::string_view key, std::string_view what, const std::vector<Guid>& unknown) {
  if (unknown.empty()) return "";
  std::string text = std::string(key) + ": " + std::to_string(unknown.size()) +
                     (unknown.size() == 1 ? " GUID names" : " GUIDs name") + " no " + std::string(what) + ", skipped:";
  for (std::size_t i = 0; i < unknown.size() && i < 8; ++i) text += " " + format_guid(unknown[i]);
  if (unknown.size() > 8) text += " ...";
  return text;
}

std::string unknown_order_note(std::string_view engine, const std::vector<Guid>& unknown) {
  return skipped_guids_note("routing." + std::string(engine) + ".guid_routing_order", "port with a LID", unknown);
}

std::string summarise_order(const std::vector<Guid>& guids) {
  if (guids.empty()) return "none";
  return std::to_string(guids.size());
}

bool read_routing_order(OptionReader& in, std::vector<Guid>& out) {
  return in.read_guid_list_or_file("guid_routing_order", out);
}

}  // namespace smd
