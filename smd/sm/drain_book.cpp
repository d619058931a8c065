#include "smd/sm/drain_book.h"

#include <algorithm>
#include <charconv>
#include <unordered_set>

#include "routing/base/hex_text.h"
#include "routing/isolation/routed_topology.h"
#include "routing/whatif/drain_target.h"

namespace smd {
namespace {

DrainRecord record_of(const Topology& topo, const DrainPart& part) {
  const PortNum port = part.kind == DrainPart::Kind::kCable ? part.port : PortNum{0};
  return DrainRecord{{topo.node(part.node).guid, port}, false};
}

/// The other end of a recorded cable on `topo` (port 0 = a switch, or not cabled there: none).
std::optional<PortKey> peer_of(const Topology& topo, const PortKey& k) {
  if (k.port == 0) return std::nullopt;
  const std::optional<NodeIndex> n = topo.find(k.node_guid);
  if (!n || k.port >= topo.node(*n).ports.size()) return std::nullopt;
  const Port& p = topo.node(*n).ports[k.port];
  if (!p.connected()) return std::nullopt;
  return PortKey{topo.node(p.peer).guid, p.peer_port};
}

/// The recorded drain `k` names: itself, or a cable recorded from its other end.
std::vector<DrainRecord>::const_iterator find_record(const std::vector<DrainRecord>& records, const Topology* topo,
                                                     const PortKey& k) {
  const std::optional<PortKey> peer = topo ? peer_of(*topo, k) : std::nullopt;
  return std::find_if(records.begin(), records.end(),
                      [&](const DrainRecord& r) { return r.part == k || (peer && r.part == *peer); });
}

/// Cable ends of `records` on `topo` (parts not in it drain nothing there).
std::vector<CableEnd> ends_on(const Topology& topo, std::span<const DrainRecord> records) {
  std::vector<CableEnd> ends;
  for (const DrainRecord& r : records) {
    if (const std::optional<NodeIndex> n = topo.find(r.part.node_guid)) ends.push_back({*n, r.part.port});
  }
  return ends;
}

/// "0xGUID" or "0xGUID/PORT" read without a fabric (undrain of a part that left it); nullopt otherwise.
std::optional<PortKey> literal_part(const std::string& text) {
  if (text.size() < 3 || text.compare(0, 2, "0x") != 0) return std::nullopt;
  const std::size_t slash = text.find('/');
  const std::string guid_text = text.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
  std::uint64_t guid = 0;
  auto [end, ec] = std::from_chars(guid_text.data(), guid_text.data() + guid_text.size(), guid, 16);
  if (ec != std::errc() || end != guid_text.data() + guid_text.size() || guid == 0) return std::nullopt;
  unsigned port = 0;
  if (slash != std::string::npos) {
    const std::string port_text = text.substr(slash + 1);
    auto [pend, pec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port, 10);
    if (pec != std::errc() || pend != port_text.data() + port_text.size() || port == 0 || port > 254) {
      return std::nullopt;
    }
  }
  return PortKey{guid, static_cast<PortNum>(port)};
}

std::string describe_end(const Topology& topo, const CableEnd& e) {
  return describe_node(topo.node(e.node)) + " port " + std::to_string(e.port);
}

}  // namespace

std::string sm_own_drain(const Topology& topo, std::span<const DrainRecord> records) {
  if (topo.sm_node == kNoNode || topo.sm_node >= topo.size()) return {};
  const Node& sm = topo.node(topo.sm_node);
  if (topo.sm_port >= sm.ports.size()) return {};
  const Port& port = sm.ports[topo.sm_port];
  const std::string own_port = "the SM's own port " + describe_node(sm) + " port " + std::to_string(topo.sm_port);
  for (const DrainRecord& r : records) {
    if (r.part.node_guid == sm.guid && (r.part.port == 0 || r.part.port == topo.sm_port)) return own_port;
    if (!port.connected() || r.part.node_guid != topo.node(port.peer).guid) continue;
    if (r.part.port == port.peer_port) return own_port;
    if (r.part.port == 0) return "the SM's own switch " + describe_node(topo.node(port.peer));
  }
  return {};
}

std::string describe_drain(const Topology* topo, const DrainRecord& record) {
  const std::optional<NodeIndex> n = topo ? topo->find(record.part.node_guid) : std::nullopt;
  const std::string node = n ? describe_node(topo->node(*n)) : hex64_text(record.part.node_guid);
  if (record.part.port != 0) return "cable " + node + " port " + std::to_string(record.part.port);
  // Port 0 is a whole switch; a CA's port-0 line (hand-written: smctl drain names a CA's cable) drains nothing.
  if (n && !topo->node(*n).is_switch()) return "CA " + node + " named whole (drains nothing: name its cable)";
  return "switch " + node;
}

Result<std::vector<std::string>> DrainBook::load() {
  records_.clear();
  if (path_.empty()) return std::vector<std::string>{};
  auto read = read_drain_file(path_);
  if (!read) {
    unreadable_ = read.error().message;
    return read.error();
  }
  unreadable_.clear();
  records_ = std::move(read->records);
  loaded_.clear();
  for (std::size_t i = 0; i < records_.size() && i < read->lines.size(); ++i) {
    loaded_.emplace_back(records_[i].part, read->lines[i]);
  }
  return std::move(read->problems);
}

std::vector<std::string> DrainBook::check_loaded(const Topology& topo) {
  std::vector<std::string> warnings;
  // Sets, not searches per line: a file of 170,000 lines checked line by line against the records was quadratic.
  std::unordered_set<PortKey, PortKeyHash> held;
  held.reserve(records_.size());
  for (const DrainRecord& r : records_) held.insert(r.part);
  // Parts whose node is not in the fabric: one warning for all of them (a rack powered off may be thousands of
  // lines), with the count and the first few places.
  std::size_t unknown = 0;
  std::string unknown_first;
  for (const auto& [part, line] : loaded_) {
    if (!held.contains(part)) continue;
    const std::string where = path_ + ":" + std::to_string(line);
    const std::string port = std::to_string(part.port);
    const std::optional<NodeIndex> n = topo.find(part.node_guid);
    if (!n) {
      if (unknown++ < kUnknownListed) {
        unknown_first += (unknown_first.empty() ? "" : ", ") + where + " " + hex64_text(part.node_guid) + " port " + port;
      }
      continue;
    }
    const Node& node = topo.node(*n);
    if (part.port == 0 && !node.is_switch()) {
      warnings.push_back(where + ": " + describe_node(node) +
                         " port 0: a CA is never drained whole (name its cable); "
                         "it drains nothing (smctl undrain " +
                         hex64_text(part.node_guid) + " removes it)");
    } else if (part.port > node.num_ports) {
      warnings.push_back(where + ": " + describe_node(node) + " has no port " + port + " (ports 1.." +
                         std::to_string(node.num_ports) + "); it drains nothing (smctl undrain " +
                         hex64_text(part.node_guid) + "/" + port + " removes it)");
    }
  }
  if (unknown > 0) {
    const std::string more = unknown > kUnknownListed ? " and " + std::to_string(unknown - kUnknownListed) + " more" : "";
    warnings.insert(warnings.begin(),
                    path_ + ": " + std::to_string(unknown) + " drain(s) name a GUID no node of the fabric has (" +
                        unknown_first + more + "); kept, each drains nothing until its node is back");
  }
  loaded_.clear();
  return warnings;
}

std::vector<PortKey> DrainBook::parts() const {
  std::vector<PortKey> out;
  out.reserve(records_.size());
  for (const DrainRecord& r : records_) out.push_back(r.part);
  return out;
}

Status DrainBook::save(const std::vector<DrainRecord>& records) const {
  if (!unreadable_.empty()) {
    return make_error(ErrorCode::kIo, path_ + " could not be read when smd loaded it (" + unreadable_ +
                                          "): not overwritten, so the drains it holds are kept; fix or move it "
                                          "and restart smd");
  }
  if (path_.empty()) return Ok{};
  return write_drain_file(path_, records);
}

Result<DrainChange> DrainBook::drain(const Topology& topo, std::span<const std::string> texts, bool force,
                                     const DrainRouteCheck& routes) {
  // Errors name the operator's command, not the offline CLI's --drain.
  auto parts = resolve_drain_request(topo, texts, "smctl drain");
  if (!parts) return parts.error();
  DrainChange change;
  std::vector<DrainRecord> next = records_;
  for (const DrainPart& part : *parts) {
    const DrainRecord r = record_of(topo, part);
    if (find_record(next, &topo, r.part) != next.end()) {
      // Named twice in one request, or recorded before: once.
      if (find_record(change.changed, &topo, r.part) == change.changed.end()) change.already.push_back(r);
      continue;
    }
    next.push_back(r);
    change.changed.push_back(r);
  }
  if (change.changed.empty()) return change;
  // Separated by these drains: connected with the recorded ones applied, not with these added as well.
  const RoutedTopology now = routed_topology(topo, ends_on(topo, records_), {});
  const RoutedTopology after = routed_topology(topo, ends_on(topo, next), {});
  if (const auto pair = first_separated_pair(now.topo, after.topo)) {
    change.separated = describe_end(topo, pair->first) + " and " + describe_end(topo, pair->second);
    if (!force) {
      return make_error(ErrorCode::kInvalidInput, "drain: would cut off " + change.separated +
                                                      " from each other (every path lost): nothing drained; "
                                                      "--force drains anyway");
    }
  }
  if (routes) {
    if (Status st = routes(ends_on(topo, next)); !st) {
      change.unroutable = st.error().message;
      if (!force) {
        std::string named;
        for (const DrainPart& part : *parts) named += (named.empty() ? "" : " ") + part.text;
        const std::string fallback(kDrainFallbackEngine);
        return make_error(ErrorCode::kInvalidInput,
                          "smctl drain " + named + ": no engine of the chain routes the fabric with " +
                              (parts->size() == 1 ? "it" : "them") + " drained (" + change.unroutable +
                              "): nothing drained; --force drains anyway (the SM then routes with " + fallback +
                              ", as OpenSM falls back to its default engine)");
      }
    }
  }
  if (!change.separated.empty() || !change.unroutable.empty()) {
    for (DrainRecord& r : change.changed) r.forced = true;
    for (DrainRecord& r : next) {
      if (find_record(change.changed, nullptr, r.part) != change.changed.end()) r.forced = true;
    }
  }
  if (Status st = save(next); !st) return st.error().with_context("drain");
  records_ = std::move(next);
  return change;
}

Result<DrainChange> DrainBook::undrain(const Topology* topo, std::span<const std::string> texts, bool all) {
  if (all && !texts.empty()) return make_error(ErrorCode::kInvalidInput, "undrain: --all or names, not both");
  if (!all && texts.empty()) return make_error(ErrorCode::kInvalidInput, "undrain: name a part, or --all");
  DrainChange change;
  std::vector<DrainRecord> next = records_;
  if (all) {
    change.changed = records_;
    next.clear();
  }
  for (const std::string& text : texts) {
    std::optional<PortKey> key;
    if (topo) {
      if (auto part = resolve_drain_part(*topo, text, "smctl undrain")) key = record_of(*topo, *part).part;
    }
    if (!key) key = literal_part(text);
    if (!key) {
      return make_error(ErrorCode::kInvalidInput, "undrain: '" + text +
                                                      "' names no part of the fabric (a switch, NAME[PORT], "
                                                      "0xGUID or 0xGUID/PORT)");
    }
    // Every line that names this part: a hand-edited file may list a cable by both of its ends, and
    // leaving one of them would keep the cable drained.
    const std::optional<PortKey> peer = topo ? peer_of(*topo, *key) : std::nullopt;
    const auto named = [&](const DrainRecord& r) { return r.part == *key || (peer && r.part == *peer); };
    const auto kept = std::stable_partition(next.begin(), next.end(), [&](const DrainRecord& r) { return !named(r); });
    if (kept != next.end()) {
      change.changed.insert(change.changed.end(), kept, next.end());
      next.erase(kept, next.end());
      continue;
    }
    // Named again in this request (the same spelling, or the cable's other end), or not drained at all:
    // nothing to do for it, as a drain of a part drained already.
    if (find_record(change.changed, topo, *key) == change.changed.end() &&
        find_record(change.already, topo, *key) == change.already.end()) {
      change.already.push_back(DrainRecord{*key, false});
    }
  }
  if (change.changed.empty()) return change;
  if (Status st = save(next); !st) return st.error().with_context("undrain");
  records_ = std::move(next);
  return change;
}

}  // namespace smd
