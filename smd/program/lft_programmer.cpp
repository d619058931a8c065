#include "smd/program/lft_programmer.h"

#include <cstdio>
#include <string>

#include "mad/codec/switch_info.h"
#include "smd/program/smp_failure.h"

namespace smd {

ProgramCounts LftProgrammer::program(SmpBatch& batch, Discovered& d, const RoutingTables& tables,
                                     std::vector<SweepProblem>& problems) {
  ProgramCounts counts;
  const Topology& topo = *d.topo;
  for (NodeIndex s : topo.switches()) {
    const Node& sw = topo.node(s);
    const Lft& want = tables.lft[s];
    if (want.empty()) continue;
    ++counts.switches;
    const mad::DrPath path(sw.dr_path);
    if (sw.lft_cap == 0 || want.top() >= sw.lft_cap) {
      problems.push_back({ProblemCode::kCapacity, sw.guid, path.to_string(), "LinearForwardingTable",
                          "table top " + std::to_string(want.top()) + " exceeds LinearFDBCap " +
                              std::to_string(sw.lft_cap) + "; not written"});
      continue;
    }
    Believed& b = believed_[sw.guid];
    const unsigned nblocks = want.num_blocks();
    if (b.blocks.size() < nblocks) {
      b.blocks.resize(nblocks);
      b.valid.resize(nblocks, false);
    }

    // LinearFDBTop: what the switch reported at discovery, or what we last wrote.
    const Lid current_top = b.top_valid ? b.top : sw.lft_top;
    if (current_top != want.top()) {
      auto si = mad::SwitchInfo::decode(d.switch_info[s]);
      si.linear_fdb_top = want.top();
      mad::SmpRequest req;
      req.path = path;
      req.method = mad::Method::kSet;
      req.attr_id = mad::attr::kSwitchInfo;
      si.encode(req.data);
      ++counts.top_updates;
      const Guid guid = sw.guid;
      const Lid top = want.top();
      batch.submit(std::move(req), [&, s, guid, top, path](const mad::SmpReply& r) {
        if (r.outcome == mad::SmpOutcome::kOk && mad::SwitchInfo::decode(r.data).linear_fdb_top == top) {
          Believed& bb = believed_[guid];
          bb.top = top;
          bb.top_valid = true;
          d.switch_info[s] = r.data;
        } else {
          problems.push_back({r.outcome == mad::SmpOutcome::kOk ? ProblemCode::kNotTaken : failure_code(r), guid,
                              path.to_string(), "SwitchInfo Set LinearFDBTop",
                              r.outcome == mad::SmpOutcome::kOk ? "top not taken" : mad::describe_failure(r)});
        }
      });
    } else {
      b.top = current_top;
      b.top_valid = true;
    }

    for (unsigned blk = 0; blk < nblocks; ++blk) {
      const auto data = want.block(blk);
      if (b.valid[blk] && b.blocks[blk] == data) {
        ++counts.blocks_skipped;
        continue;
      }
      mad::SmpRequest req;
      req.path = path;
      req.method = mad::Method::kSet;
      req.attr_id = mad::attr::kLinearForwardingTable;
      req.attr_mod = blk;
      std::copy(data.begin(), data.end(), req.data.begin());
      ++counts.blocks_written;
      const Guid guid = sw.guid;
      batch.submit(std::move(req), [&, guid, blk, data, path](const mad::SmpReply& r) {
        Believed& bb = believed_[guid];
        const bool echoed = r.outcome == mad::SmpOutcome::kOk && std::equal(data.begin(), data.end(), r.data.begin());
        if (echoed) {
          bb.blocks[blk] = data;
          bb.valid[blk] = true;
          return;
        }
        bb.valid[blk] = false;
        ++counts.blocks_failed;
        problems.push_back({r.outcome == mad::SmpOutcome::kOk ? ProblemCode::kNotTaken : failure_code(r), guid,
                            path.to_string(), "LinearForwardingTable Set block " + std::to_string(blk),
                            r.outcome == mad::SmpOutcome::kOk ? "block not echoed" : mad::describe_failure(r)});
      });
    }
  }
  batch.wait();
  return counts;
}

bool LftProgrammer::holds(Guid switch_guid, const Lft& want) const {
  auto it = believed_.find(switch_guid);
  if (it == believed_.end()) return false;
  const Believed& b = it->second;
  if (!b.top_valid || b.top != want.top() || b.blocks.size() < want.num_blocks()) return false;
  for (unsigned blk = 0; blk < want.num_blocks(); ++blk) {
    if (!b.valid[blk] || b.blocks[blk] != want.block(blk)) return false;
  }
  return true;
}

}  // namespace smd
