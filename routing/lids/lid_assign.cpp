#include "routing/lids/lid_assign.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_set>
#include <vector>

namespace smd {

namespace {

struct Claim {
  NodeIndex node;
  PortNum port;
  Guid guid;
  std::uint8_t lmc;
};

// Ports that need LIDs: switch port 0, and every CA/router port that is cabled (or is the SM's own port).
std::vector<Claim> ports_needing_lids(const Topology& topo, unsigned lmc) {
  std::vector<Claim> out;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      out.push_back(Claim{n, 0, node.ports[0].guid ? node.ports[0].guid : node.guid, 0});
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      const bool sm_port = n == topo.sm_node && p == topo.sm_port;
      if (port.connected() || sm_port) out.push_back(Claim{n, p, port.guid, static_cast<std::uint8_t>(lmc)});
    }
  }
  return out;
}

bool range_free(const LidMap& map, unsigned base, unsigned count) {
  for (unsigned l = base; l < base + count; ++l) {
    if (map.owner(static_cast<Lid>(l))) return false;
  }
  return true;
}

bool fits(unsigned base, unsigned count, unsigned max_lid) {
  return base != 0 && (base & (count - 1)) == 0 && base + count - 1 <= max_lid;
}

// The base LID guid2lid remembers for claim `c`, when it still fits the port and the fabric; 0 when
// there is none or it is passed over (then *passed_over, if given, says why).
unsigned remembered_base(const Claim& c, const Guid2Lid& remembered, const LidMap& map, unsigned max_lid,
                         std::vector<std::string>* passed_over) {
  auto it = remembered.find(c.guid);
  if (it == remembered.end()) return 0;
  const unsigned count = 1u << c.lmc;
  const unsigned size = it->second.max - it->second.min + 1u;
  auto pass_over = [&](const std::string& why) {
    if (passed_over == nullptr) return 0u;
    char range[48];
    std::snprintf(range, sizeof range, "0x%04x-0x%04x", static_cast<unsigned>(it->second.min),
                  static_cast<unsigned>(it->second.max));
    passed_over->push_back(format_guid(c.guid) + " " + range + ": " + why);
    return 0u;
  };
  if (size != count) {
    return pass_over(std::to_string(size) + " LIDs but LMC " + std::to_string(c.lmc) + " gives the port " +
                     std::to_string(count));
  }
  const unsigned base = it->second.min;
  if (!fits(base, count, max_lid)) {
    return pass_over("not an aligned range below LID " + std::to_string(max_lid + 1) +
                     " (the smallest LinearFDBCap of the fabric's switches)");
  }
  if (!range_free(map, base, count)) return pass_over("already granted to another port");
  return base;
}

// Pass 1 and 2: keep what the operator's guid2lid remembers, then what the port already holds.
void keep_known_lids(const Topology& topo, const Guid2Lid& remembered, const LidAssignOptions& options,
                     const std::vector<Claim>& claims, unsigned max_lid, std::vector<bool>& placed, LidMap& map,
                     std::vector<std::string>* passed_over) {
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (placed[i]) continue;
      const Claim& c = claims[i];
      const unsigned count = 1u << c.lmc;
      unsigned base = 0;
      if (pass == 0) {
        base = remembered_base(c, remembered, map, max_lid, passed_over);
      } else if (options.keep_port_lids) {
        const Port& port = topo.node(c.node).ports[c.port];
        if (port.lmc == c.lmc) base = port.lid;
      }
      if (base == 0) continue;
      if (!fits(base, count, max_lid) || !range_free(map, base, count)) continue;
      if (map.assign(c.node, c.port, static_cast<Lid>(base), c.lmc).ok()) placed[i] = true;
    }
  }
}

// Pass 3: lowest free aligned range for the rest, in topology order (stable across sweeps). LIDs
// remembered for ports that are not in this fabric stay reserved for them (a switch being serviced comes
// back with its LID), unless the fabric needs them: the scan tries without them first.
class FreeRangeScan {
 public:
  FreeRangeScan(const std::vector<Claim>& claims, const Guid2Lid& remembered, unsigned max_lid)
      : max_lid_(max_lid), reserved_(max_lid + 1u, false) {
    std::unordered_set<Guid> claimed;
    for (const Claim& c : claims) claimed.insert(c.guid);
    for (const auto& [guid, range] : remembered) {
      if (claimed.count(guid)) continue;
      for (unsigned l = range.min; l <= range.max && l <= max_lid; ++l) {
        reserved_[l] = true;
        any_reserved_ = true;
      }
    }
  }

  // The base of the next free aligned range of 2^lmc LIDs in `map`, or max_lid + 1 when none is left.
  unsigned next(const LidMap& map, std::uint8_t lmc) {
    const unsigned count = 1u << lmc;
    auto aligned = [count](unsigned from) { return (std::max(from, count) + count - 1) & ~(count - 1); };
    unsigned base = max_lid_ + 1;
    if (!unreserved_exhausted_[lmc]) {
      base = aligned(cursor_[lmc]);
      while (base + count - 1 <= max_lid_ && !(range_free(map, base, count) && unreserved(base, count))) base += count;
      if (base + count - 1 <= max_lid_) {
        cursor_[lmc] = base + count;
      } else {
        unreserved_exhausted_[lmc] = true;
      }
    }
    if (base + count - 1 > max_lid_ && any_reserved_) {
      // Out of unreserved LIDs: the ports here and now come before ports that may come back.
      base = aligned(cursor_any_[lmc]);
      while (base + count - 1 <= max_lid_ && !range_free(map, base, count)) base += count;
      cursor_any_[lmc] = base + count;
    }
    return base;
  }

 private:
  bool unreserved(unsigned base, unsigned count) const {
    for (unsigned l = base; l < base + count; ++l) {
      if (reserved_[l]) return false;
    }
    return true;
  }

  unsigned max_lid_;
  std::vector<bool> reserved_;
  bool any_reserved_ = false;
  // One cursor per LMC for the unreserved scan and one for the scan that may take reserved LIDs, each
  // only moving up.
  unsigned cursor_[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  unsigned cursor_any_[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  bool unreserved_exhausted_[8] = {};
};

}  // namespace

// A switch without a linear FDB cannot constrain us (verification flags it).
unsigned max_forwardable_lid(const Topology& topo) {
  unsigned max_lid = kMaxUnicastLid;
  for (NodeIndex s : topo.switches()) {
    const unsigned cap = topo.node(s).lft_cap;
    if (cap == 0) continue;
    max_lid = std::min(max_lid, cap - 1);
  }
  return max_lid;
}

Result<LidMap> assign_lids(const Topology& topo, const Guid2Lid& remembered, const LidAssignOptions& options,
                           std::vector<std::string>* passed_over) {
  if (options.lmc > 7) return make_error(ErrorCode::kInvalidInput, "LMC must be 0..7");
  const unsigned max_lid = max_forwardable_lid(topo);
  const std::vector<Claim> claims = ports_needing_lids(topo, options.lmc);
  std::vector<bool> placed(claims.size(), false);
  LidMap map;
  keep_known_lids(topo, remembered, options, claims, max_lid, placed, map, passed_over);

  FreeRangeScan scan(claims, remembered, max_lid);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    if (placed[i]) continue;
    const Claim& c = claims[i];
    const unsigned base = scan.next(map, c.lmc);
    if (base + (1u << c.lmc) - 1 > max_lid) {
      return make_error(ErrorCode::kInvalidInput, "LID space exhausted: " + std::to_string(claims.size()) +
                                                      " ports with LMC " + std::to_string(options.lmc) +
                                                      " do not fit below LID " + std::to_string(max_lid) +
                                                      " (smallest LinearFDBCap of the fabric's switches)");
    }
    if (auto st = map.assign(c.node, c.port, static_cast<Lid>(base), c.lmc); !st.ok()) return st.error();
  }
  return map;
}

void merge_guid2lid(Guid2Lid& remembered, const Guid2Lid& granted) {
  std::unordered_map<Lid, Guid> owner;
  for (const auto& [guid, range] : granted) {
    for (unsigned l = range.min; l <= range.max; ++l) owner[static_cast<Lid>(l)] = guid;
  }
  for (auto it = remembered.begin(); it != remembered.end();) {
    bool clash = false;
    for (unsigned l = it->second.min; l <= it->second.max && !clash; ++l) {
      auto o = owner.find(static_cast<Lid>(l));
      clash = o != owner.end() && o->second != it->first;
    }
    it = clash ? remembered.erase(it) : std::next(it);
  }
  for (const auto& [guid, range] : granted) remembered[guid] = range;
}

Guid2Lid to_guid2lid(const Topology& topo, const LidMap& lids) {
  Guid2Lid out;
  for (const LidMap::Entry& e : lids.entries()) {
    const Node& node = topo.node(e.owner.node);
    Guid guid = node.ports[e.owner.port].guid;
    if (guid == 0) guid = node.guid;
    out[guid] = LidRange{e.base, static_cast<Lid>(e.base + (1u << e.lmc) - 1)};
  }
  return out;
}

}  // namespace smd
