#include "smd/program/pkey_plan.h"

#include <algorithm>
#include <string>

#include "mad/codec/pkey_table.h"
#include "smd/program/port_plan.h"

namespace smd {

namespace {

// The port's node in this sweep's fabric, or null when it is not (any more) the one planned for.
const Node* node_of(const SweepFabric& fabric, const PortPartitions& pp, Guid node_guid) {
  const Topology& topo = fabric.topo();
  if (pp.node >= topo.size() || topo.node(pp.node).guid != node_guid) return nullptr;
  return &topo.node(pp.node);
}

// True when every block of the port's wanted table is acknowledged.
bool table_held(const PortPartitions& pp, const AppliedPortPKeys* acked) {
  if (!pp.has_table || acked == nullptr) return false;
  const auto blocks = pkey_blocks(pp.table);
  for (unsigned b = 0; b < blocks.size(); ++b) {
    if (!acked->block_is(b, blocks[b])) return false;
  }
  return true;
}

}  // namespace

std::vector<AppliedPortPKeys::Block> pkey_blocks(const std::vector<PKey>& table) {
  std::vector<AppliedPortPKeys::Block> out((table.size() + mad::kPKeyBlockSize - 1) / mad::kPKeyBlockSize);
  for (auto& b : out) b.fill(0);
  for (std::size_t i = 0; i < table.size(); ++i) out[i / mad::kPKeyBlockSize][i % mad::kPKeyBlockSize] = table[i];
  return out;
}

PKeyPlan plan_pkey_tables(const SweepFabric& fabric, const PartitionPlan& want, const AppliedPKeys& applied) {
  PKeyPlan plan;
  for (const auto& [key, pp] : want.ports) {
    if (!pp.has_table) continue;
    const Node* node = node_of(fabric, pp, key.node_guid);
    if (node == nullptr) continue;
    ++plan.ports;
    const AppliedPortPKeys* acked = applied.port(key.node_guid, key.port);
    const auto blocks = pkey_blocks(pp.table);
    // A switch names the port in the modifier; a CA answers for the port the SMP entered by.
    const PortNum mod_port = node->is_switch() ? pp.port : 0;
    for (unsigned b = 0; b < blocks.size(); ++b) {
      if (acked != nullptr && acked->block_is(b, blocks[b])) {
        ++plan.blocks_skipped;
        continue;
      }
      mad::PKeyBlock block;
      block.entries = blocks[b];
      block.encode(add_set(plan.writes, pp.node, pp.port, key.node_guid, fabric.port_path(pp.node, pp.port),
                           mad::attr::kPKeyTable, mad::PKeyBlock::attr_mod(b, mod_port), EchoRule::kPayload)
                       .request.data);
    }
  }
  return plan;
}

std::vector<TableWrite> plan_pkey_enforcement(const SweepFabric& fabric, const PartitionPlan& want,
                                              const AppliedPKeys& applied, unsigned& skipped) {
  std::vector<TableWrite> writes;
  for (const auto& [key, pp] : want.ports) {
    if (pp.endport) continue;
    if (node_of(fabric, pp, key.node_guid) == nullptr) continue;
    const mad::PortInfo* now = fabric.port_info(pp.node, pp.port);
    if (now == nullptr) continue;
    // Enforcing against a table the port does not hold would drop its traffic: wait for the table. A
    // direction the switch cannot enforce (SwitchInfo Inbound/OutboundEnforcementCap 0, IBA 14.2.5.4) is
    // left off: its SMA ignores the bit (ibsim advertises neither and keeps both 0).
    const mad::SwitchInfo* si = fabric.switch_info(pp.node);
    const bool held = table_held(pp, applied.port(key.node_guid, key.port));
    const bool in = held && pp.enforce_in && si != nullptr && si->inbound_enforcement_cap;
    const bool out = held && pp.enforce_out && si != nullptr && si->outbound_enforcement_cap;
    if (now->partition_enforcement_inbound == in && now->partition_enforcement_outbound == out) {
      ++skipped;
      continue;
    }
    mad::PortInfo pi = nop_base(*now);
    pi.partition_enforcement_inbound = in;
    pi.partition_enforcement_outbound = out;
    writes.push_back(port_info_set(fabric, pp.node, pp.port, pi, EchoRule::kPortPartitionEnforcement));
  }
  return writes;
}

std::vector<SweepProblem> partition_problems(const SweepFabric& fabric, const PartitionPlan& want) {
  std::vector<SweepProblem> out;
  const Topology& topo = fabric.topo();
  for (const PartitionProblem& p : want.problems) {
    std::string path = "?";
    if (auto n = topo.find(p.node_guid); n && p.port < topo.node(*n).ports.size()) {
      path = fabric.port_path(*n, p.port).to_string();
    }
    out.push_back({ProblemCode::kCapacity, p.node_guid, path, "P_KeyTable " + std::to_string(p.port), p.reason});
  }
  return out;
}

}  // namespace smd
