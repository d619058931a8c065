// resolve_drain_part(s): see drain_target.h for the grammar.
#include "routing/whatif/drain_target.h"

#include <algorithm>

#include <charconv>
#include <optional>
#include <string_view>

namespace smd {
namespace {

// Errors read "'TEXT': why"; the public functions put the option that named the part in front.
Error bad(const std::string& text, const std::string& why) {
  return make_error(ErrorCode::kInvalidInput, "'" + text + "': " + why);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// A name with its ibsim quotes taken off ("sw-L0-0" -> sw-L0-0).
std::string_view unquote(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  return s;
}

bool is_quoted(std::string_view s) { return s.size() >= 2 && s.front() == '"' && s.back() == '"'; }

bool looks_like_guid(std::string_view s) { return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'); }

/// The node named by a GUID or a NodeDescription (only a NodeDescription when `name` was in quotes, as
/// ibsim writes names; only a GUID with `guid_only`, the GUID/PORT form); errors name `text`. A name that reads both
/// ways and names two nodes (a NodeDescription written as another node's GUID) is refused as ambiguous: a drain must
/// never pick a part the operator did not mean.
Result<NodeIndex> find_node(const Topology& topo, std::string_view written, const std::string& text,
                            bool guid_only = false) {
  const bool description_only = is_quoted(written);
  const std::string_view name = unquote(written);
  std::optional<NodeIndex> by_guid;
  std::string guid_problem;
  if (!description_only && looks_like_guid(name)) {
    Guid guid = 0;
    const char* first = name.data() + 2;
    const char* last = name.data() + name.size();
    const auto [ptr, ec] = std::from_chars(first, last, guid, 16);
    if (ec != std::errc{} || ptr != last || last - first > 16) {
      guid_problem = "not a 64-bit hex GUID";
    } else {
      by_guid = topo.find(guid);
      if (!by_guid) guid_problem = "no node has GUID " + format_guid(guid);
    }
  }
  if (guid_only) {
    if (by_guid) return *by_guid;
    return bad(text, guid_problem);
  }
  NodeIndex found = kNoNode;
  std::size_t count = 0;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    if (topo.node(n).description != name) continue;
    if (count++ == 0) found = n;
  }
  if (by_guid && count > 0 && (count > 1 || found != *by_guid)) {
    return bad(text, "names " + describe_node(topo.node(*by_guid)) + " by GUID and " + std::to_string(count) +
                         " node(s) by NodeDescription; ambiguous: write the NodeDescription in double quotes");
  }
  if (by_guid) return *by_guid;
  if (count == 0)
    return bad(text, guid_problem.empty() ? "no node is named '" + std::string(name) + "'" : guid_problem);
  if (count > 1) {
    return bad(text, std::to_string(count) + " nodes are named '" + std::string(name) + "'; name it by GUID");
  }
  return found;
}

Result<PortNum> parse_port(std::string_view s, const std::string& text) {
  unsigned v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || v > 254) {
    return bad(text, "'" + std::string(s) + "' is not a port number (1..254)");
  }
  return static_cast<PortNum>(v);
}

Result<DrainPart> cable_part(const Topology& topo, NodeIndex n, PortNum port, const std::string& text) {
  const Node& node = topo.node(n);
  if (port == 0 || port > node.num_ports || port >= node.ports.size()) {
    return bad(text, describe_node(node) + " has no port " + std::to_string(port) + " (ports 1.." +
                         std::to_string(node.num_ports) + ")");
  }
  const Port& p = node.ports[port];
  if (!p.connected()) return bad(text, describe_node(node) + " port " + std::to_string(port) + " has no cable");
  DrainPart part;
  part.kind = DrainPart::Kind::kCable;
  part.text = text;
  part.node = n;
  part.port = port;
  part.peer = p.peer;
  part.peer_port = p.peer_port;
  return part;
}

Result<DrainPart> resolve(const Topology& topo, const std::string& text) {
  const std::string_view s = trim(text);
  if (s.empty()) return bad(text, "empty name");
  // NAME[PORT]: ibsim's console form.
  if (s.back() == ']') {
    const std::size_t open = s.rfind('[');
    if (open == std::string_view::npos) return bad(text, "']' without '['");
    auto port = parse_port(s.substr(open + 1, s.size() - open - 2), text);
    if (!port) return port.error();
    auto n = find_node(topo, trim(s.substr(0, open)), text);
    if (!n) return n.error();
    return cable_part(topo, *n, *port, text);
  }
  // GUID/PORT. Only after a GUID: a NodeDescription may hold '/' itself.
  if (const std::size_t slash = s.rfind('/'); slash != std::string_view::npos && looks_like_guid(s)) {
    auto port = parse_port(s.substr(slash + 1), text);
    if (!port) return port.error();
    auto n = find_node(topo, s.substr(0, slash), text, /*guid_only=*/true);
    if (!n) return n.error();
    return cable_part(topo, *n, *port, text);
  }
  auto n = find_node(topo, s, text);
  if (!n) return n.error();
  const Node& node = topo.node(*n);
  if (!node.is_switch()) {
    return bad(text, describe_node(node) + " is not a switch; drain a CA's cable as NAME[PORT] or GUID/PORT");
  }
  DrainPart part;
  part.kind = DrainPart::Kind::kSwitch;
  part.text = text;
  part.node = *n;
  return part;
}

}  // namespace

Result<DrainPart> resolve_drain_part(const Topology& topo, const std::string& text, std::string_view option) {
  auto part = resolve(topo, text);
  if (!part) return make_error(part.error().code, std::string(option) + " " + part.error().message);
  return part;
}

Result<std::vector<DrainPart>> resolve_drain_parts(const Topology& topo, std::span<const std::string> texts,
                                                   std::string_view option) {
  if (texts.empty()) return make_error(ErrorCode::kInvalidInput, std::string(option) + ": nothing named");
  std::vector<DrainPart> parts;
  parts.reserve(texts.size());
  for (const std::string& t : texts) {
    auto part = resolve_drain_part(topo, t, option);
    if (!part) return part.error();
    parts.push_back(std::move(part).value());
  }
  return parts;
}

namespace {

/// Whether two resolved parts are one: the same switch, or one cable by either end.
bool same_drain_part(const DrainPart& a, const DrainPart& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == DrainPart::Kind::kSwitch) return a.node == b.node;
  return (a.node == b.node && a.port == b.port) || (a.node == b.peer && a.port == b.peer_port);
}

}  // namespace

Result<std::vector<DrainPart>> resolve_drain_request(const Topology& topo, std::span<const std::string> texts,
                                                     std::string_view option) {
  auto parts = resolve_drain_parts(topo, texts, option);
  if (!parts) return parts.error();
  std::vector<DrainPart> once;
  once.reserve(parts->size());
  for (DrainPart& part : *parts) {
    const bool seen = std::any_of(once.begin(), once.end(), [&](const DrainPart& o) { return same_drain_part(o, part); });
    if (!seen) once.push_back(std::move(part));
  }
  return once;
}

Status distinct_drain_parts(std::span<const DrainPart> parts, std::string_view option) {
  for (std::size_t i = 1; i < parts.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (!same_drain_part(parts[i], parts[j])) continue;
      const char* what = parts[i].kind == DrainPart::Kind::kSwitch ? "switch" : "cable";
      return make_error(ErrorCode::kInvalidInput, std::string(option) + " '" + parts[i].text + "': the same " + what +
                                                      " as '" + parts[j].text + "'; name each part once");
    }
  }
  return Ok{};
}

}  // namespace smd
