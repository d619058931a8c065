// The groups file as text, written in one pass over the groups. It was a JSON document built node by node,
// dumped, parsed again to add the writer's stamp and dumped again: in an IPv6 solicited-node join storm
// (every host its own group, 1728 on the k12 tree) that took most of the SA thread, which answers the joins
// (bench/README.md, "IPv6 solicited-node join storm"). The text is the one nlohmann's dump(1) gives for the
// same document (keys in byte order, one space per level), so files stay as they were; every value is a
// number, a boolean or a hex string, none needs escaping.
#include <fmt/format.h>

#include <iterator>
#include <optional>
#include <string>

#include "smd/sa/mcast_db.h"

namespace smd::sa {

namespace {

/// `n` spaces: the indentation of nesting level n.
void indent(fmt::memory_buffer& out, int n) {
  for (int i = 0; i < n; ++i) out.push_back(' ');
}

/// A GUID as the files spell it: "0x" and 16 lower-case hex digits.
void append_guid(fmt::memory_buffer& out, Guid guid) { fmt::format_to(std::back_inserter(out), "\"{:#018x}\"", guid); }

void append_member(fmt::memory_buffer& out, Guid guid, std::uint8_t join_state, bool self) {
  auto it = std::back_inserter(out);
  indent(out, 4);
  fmt::format_to(it, "{{\n");
  indent(out, 5);
  fmt::format_to(it, "\"guid\": ");
  append_guid(out, guid);
  fmt::format_to(it, ",\n");
  indent(out, 5);
  fmt::format_to(it, "\"join_state\": {}", unsigned{join_state});
  if (self) {  // absent: a proxy join (files before it)
    fmt::format_to(it, ",\n");
    indent(out, 5);
    fmt::format_to(it, "\"self\": true");
  }
  fmt::format_to(it, "\n");
  indent(out, 4);
  fmt::format_to(it, "}}");
}

void append_group(fmt::memory_buffer& out, const McastGroup& g) {
  auto it = std::back_inserter(out);
  auto field = [&](const char* key, unsigned long long v) {
    indent(out, 3);
    fmt::format_to(it, "\"{}\": {},\n", key, v);
  };
  indent(out, 2);
  fmt::format_to(it, "{{\n");
  field("flow_label", g.flow_label);
  field("hop_limit", g.hop_limit);
  indent(out, 3);
  if (g.members.empty()) {
    fmt::format_to(it, "\"members\": [],\n");
  } else {
    fmt::format_to(it, "\"members\": [\n");
    bool first = true;
    for (const auto& [guid, js] : g.members) {
      if (!first) fmt::format_to(it, ",\n");
      first = false;
      append_member(out, guid, js, g.self_joined.contains(guid));
    }
    fmt::format_to(it, "\n");
    indent(out, 3);
    fmt::format_to(it, "],\n");
  }
  indent(out, 3);
  fmt::format_to(it, "\"mgid\": \"");
  for (std::uint8_t b : g.mgid) fmt::format_to(it, "{:02x}", b);
  fmt::format_to(it, "\",\n");
  field("mlid", g.mlid);
  field("mtu", g.mtu);
  field("packet_life", g.packet_life);
  field("pkey", g.pkey);
  field("q_key", g.q_key);
  field("rate", g.rate);
  field("scope", g.scope);
  field("sl", g.sl);
  field("tclass", g.tclass);
  indent(out, 3);
  fmt::format_to(it, "\"well_known\": {}\n", g.well_known);
  indent(out, 2);
  fmt::format_to(it, "}}");
}

}  // namespace

std::string McastDb::to_json(std::optional<Guid> written_by) const {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  if (groups_.empty()) {
    fmt::format_to(it, "{{\n \"groups\": [],\n");
  } else {
    fmt::format_to(it, "{{\n \"groups\": [\n");
    bool first = true;
    for (const auto& [mgid, g] : groups_) {
      if (!first) fmt::format_to(it, ",\n");
      first = false;
      append_group(out, g);
    }
    fmt::format_to(it, "\n ],\n");
  }
  fmt::format_to(it, " \"next_mgid\": {},\n \"version\": 1", next_mgid_);
  if (written_by) {
    fmt::format_to(it, ",\n \"written_by\": ");
    append_guid(out, *written_by);
  }
  fmt::format_to(it, "\n}}\n");
  return fmt::to_string(out);
}

}  // namespace smd::sa
