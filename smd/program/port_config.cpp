#include "smd/program/port_config.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "mad/codec/port_info.h"
#include "smd/program/smp_failure.h"

namespace smd {

namespace {

mad::SmpRequest port_info_set(const mad::DrPath& path, PortNum port, const mad::PortInfo& pi) {
  mad::SmpRequest req;
  req.path = path;
  req.method = mad::Method::kSet;
  req.attr_id = mad::attr::kPortInfo;
  req.attr_mod = port;
  pi.encode(req.data);
  return req;
}

// A PortInfo ready to be sent as a Set that changes nothing but what the caller then assigns.
mad::PortInfo nop_base(const mad::SmpData& read) {
  mad::PortInfo pi = mad::PortInfo::decode(read);
  pi.port_state = 0;               // NoChange: ibsim answers 0x1C to a Set of the current state
  pi.port_physical_state = 0;      // NoChange
  pi.link_down_default_state = 0;  // NoChange
  return pi;
}

}  // namespace

PhaseCounts configure_endports(SmpBatch& batch, Discovered& d, const LidMap& lids, const PortConfigOptions& opt,
                               std::vector<SweepProblem>& problems) {
  PhaseCounts counts;
  const Topology& topo = *d.topo;
  for (const LidMap::Entry& e : lids.entries()) {
    const NodeIndex n = e.owner.node;
    const PortNum p = e.owner.port;
    if (!d.port_info_valid[n][p]) continue;  // unread port: discovery already reported it
    const auto now = mad::PortInfo::decode(d.port_info[n][p]);
    const bool m_key_right = opt.m_key == 0 || (now.m_key == opt.m_key && now.m_key_protect_bits == opt.m_key_protect &&
                                                now.m_key_lease_period == opt.m_key_lease_period_s);
    if (now.lid == e.base && now.lmc == e.lmc && now.master_sm_lid == opt.sm_lid &&
        now.gid_prefix == opt.subnet_prefix && m_key_right) {
      ++counts.skipped;
      continue;
    }
    mad::PortInfo want = nop_base(d.port_info[n][p]);
    want.lid = e.base;
    want.lmc = e.lmc;
    want.master_sm_lid = opt.sm_lid;
    want.gid_prefix = opt.subnet_prefix;
    if (opt.m_key != 0) {
      want.m_key = opt.m_key;
      want.m_key_protect_bits = opt.m_key_protect;
      want.m_key_lease_period = opt.m_key_lease_period_s;
    }
    ++counts.sets;
    const mad::DrPath path = d.port_path[n][p];
    batch.submit(port_info_set(path, p, want), [&, n, p, path, want](const mad::SmpReply& r) {
      const Node& node = topo.node(n);
      if (r.outcome != mad::SmpOutcome::kOk) {
        problems.push_back({failure_code(r), node.guid, path.to_string(), "PortInfo Set " + std::to_string(p),
                            mad::describe_failure(r)});
        return;
      }
      const auto got = mad::PortInfo::decode(r.data);
      if (got.lid != want.lid || got.lmc != want.lmc) {
        problems.push_back(
            {ProblemCode::kNotTaken, node.guid, path.to_string(), "PortInfo Set " + std::to_string(p),
             "LID " + std::to_string(want.lid) + " not taken (port reports " + std::to_string(got.lid) + ")"});
        return;
      }
      d.port_info[n][p] = r.data;
      ++counts.ok;
    });
  }
  batch.wait();
  return counts;
}

namespace {

// A transition Set that did not end kOk: read the port to learn what it did.
struct Unsure {
  NodeIndex node;
  PortNum port;
  std::string failure;
};

void read_back_states(SmpBatch& batch, Discovered& d, const std::vector<Unsure>& unsure, PortState to,
                      PhaseCounts& counts, std::vector<SweepProblem>& problems) {
  const Topology& topo = *d.topo;
  const std::string wanted = to_string(to);
  for (const Unsure& u : unsure) {
    mad::SmpRequest req;
    req.path = d.port_path[u.node][u.port];
    req.method = mad::Method::kGet;
    req.attr_id = mad::attr::kPortInfo;
    req.attr_mod = u.port;
    ++counts.read_back;
    batch.submit(std::move(req), [&, u](const mad::SmpReply& r) {
      const Guid guid = topo.node(u.node).guid;
      const std::string path = d.port_path[u.node][u.port].to_string();
      const std::string attribute = "PortInfo Set " + std::to_string(u.port) + " " + wanted;
      if (r.outcome != mad::SmpOutcome::kOk) {
        d.port_info_valid[u.node][u.port] = false;
        problems.push_back(
            {failure_code(r), guid, path, attribute, u.failure + "; read-back " + mad::describe_failure(r)});
        return;
      }
      d.port_info[u.node][u.port] = r.data;
      const auto state = mad::PortInfo::decode(r.data).port_state;
      if (state == static_cast<std::uint8_t>(to)) {
        ++counts.ok;  // done; only its answer was lost
        return;
      }
      problems.push_back({ProblemCode::kNotActive, guid, path, attribute,
                          u.failure + "; port is " + to_string(static_cast<PortState>(std::min<unsigned>(state, 4)))});
    });
  }
  batch.wait();
}

}  // namespace

PhaseCounts transition_links(SmpBatch& batch, Discovered& d, PortState from, PortState to,
                             std::vector<SweepProblem>& problems) {
  PhaseCounts counts;
  const Topology& topo = *d.topo;
  std::vector<Unsure> unsure;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected() || !d.port_info_valid[n][p]) continue;
      const auto now = mad::PortInfo::decode(d.port_info[n][p]);
      if (now.port_state != static_cast<std::uint8_t>(from)) {
        ++counts.skipped;
        continue;
      }
      mad::PortInfo want = nop_base(d.port_info[n][p]);
      want.port_state = static_cast<std::uint8_t>(to);
      if (to == PortState::kArmed && d.port_info_valid[port.peer][port.peer_port]) {
        // Both ends must agree on MTU and data VLs before the link carries traffic (IBA 7.6, 14.2.5.6).
        const auto peer = mad::PortInfo::decode(d.port_info[port.peer][port.peer_port]);
        if (now.mtu_cap && peer.mtu_cap) want.neighbor_mtu = std::min(now.mtu_cap, peer.mtu_cap);
        if (now.vl_cap && peer.vl_cap) want.operational_vls = std::min(now.vl_cap, peer.vl_cap);
      }
      ++counts.sets;
      batch.submit(port_info_set(d.port_path[n][p], p, want), [&, n, p, to](const mad::SmpReply& r) {
        if (r.outcome != mad::SmpOutcome::kOk) {
          unsure.push_back({n, p, mad::describe_failure(r)});
          return;
        }
        d.port_info[n][p] = r.data;
        const auto got = mad::PortInfo::decode(r.data);
        if (got.port_state == static_cast<std::uint8_t>(to)) ++counts.ok;
      });
    }
  }
  batch.wait();
  read_back_states(batch, d, unsure, to, counts, problems);
  return counts;
}

std::vector<SweepProblem> ports_not_active(const Discovered& d) {
  std::vector<SweepProblem> out;
  const Topology& topo = *d.topo;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      const std::string path = d.port_path[n][p].to_string();
      const std::string attribute = "PortState " + std::to_string(p);
      if (!d.port_info_valid[n][p]) {
        out.push_back({ProblemCode::kNotActive, node.guid, path, attribute, "PortInfo unread, state unknown"});
        continue;
      }
      const auto pi = mad::PortInfo::decode(d.port_info[n][p]);
      if (pi.port_state != static_cast<std::uint8_t>(PortState::kActive)) {
        out.push_back(
            {ProblemCode::kNotActive, node.guid, path, attribute,
             std::string(to_string(static_cast<PortState>(std::min<unsigned>(pi.port_state, 4)))) + ", not Active"});
      }
    }
  }
  return out;
}

}  // namespace smd
